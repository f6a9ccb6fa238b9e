import XMPPStorage

/// What happened to one row: a final outcome, or a step back into the queue.
struct RowOutcome: Sendable, Equatable {
    var line: Int
    var jid: String
    var status: JournalStatus
    /// Why it failed (or why a success still needs attention); nil for a clean success.
    var error: String?
    /// A failure worth retrying with `--resume`.
    var retryable = false
    /// An unanswered earlier request may have taken effect.
    var uncertain = false
    /// The profile columns' state, for rows that have any.
    var profile: ProfileState?
    /// A remark on a success that is no error (`no such account` for a delete).
    var note: String?
    /// The server has just set the row's password (or new_password) from the CSV.
    var csvPasswordSet = false

    /// The server definitely did not set this row's password: the account existed, or the
    /// request was refused with no earlier one unanswered. A generated password is then dropped.
    var passwordNotSet: Bool { status == .exists || (status == .failed && !retryable && !uncertain) }

    /// True when the row is done and nothing about it failed.
    var succeeded: Bool { status.isFinal && status != .failed && status != .invalid && error == nil }
}

/// Records outcomes in the journal first, then reports them: what is printed or written to the
/// report has always been committed, so a crash can only lose output, never the record.
final class BatchRecorder {
    let journal: BatchJournal
    let output: BatchOutput
    /// Rows this run finished (or created, with their profile still to set).
    private(set) var finishedThisRun = 0
    private var counted: Set<Int> = []

    init(journal: BatchJournal, output: BatchOutput) {
        self.journal = journal
        self.output = output
    }

    /// Marks rows as sent before their requests are written, with the passwords generated for them.
    func markSent(lines: [Int], generated: [Int: String] = [:]) throws(JournalError) {
        try journal.markSent(lines: lines, generated: generated)
    }

    /// Commits `outcomes` in one transaction, then prints the final ones.
    func commit(_ outcomes: [RowOutcome]) throws(JournalError) {
        guard !outcomes.isEmpty else { return }
        try journal.record(outcomes.map {
            JournalUpdate(line: $0.line, status: $0.status, error: $0.error, retryable: $0.retryable,
                          uncertain: $0.uncertain, profile: $0.profile?.journalText, note: $0.note,
                          dropPassword: $0.passwordNotSet, dropKeptPassword: $0.csvPasswordSet)
        })
        for outcome in outcomes where outcome.status.isFinal || outcome.status == .registered {
            // A row counts once, when the server did its part: `registered`, then `created`.
            if counted.insert(outcome.line).inserted { finishedThisRun += 1 }
            if outcome.status.isFinal { output.row(outcome) }
        }
        output.progress(finishedThisRun)
    }
}
