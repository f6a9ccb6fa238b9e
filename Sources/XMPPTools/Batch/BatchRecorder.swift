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

    /// True when the row is done and nothing about it failed.
    var succeeded: Bool { status.isFinal && status != .failed && status != .invalid && error == nil }
}

/// Records outcomes in the journal first, then reports them: what is printed or written to the
/// report has always been committed, so a crash can only lose output, never the record.
final class BatchRecorder {
    let journal: BatchJournal
    let output: BatchOutput
    /// Final outcomes recorded in this run.
    private(set) var finishedThisRun = 0

    init(journal: BatchJournal, output: BatchOutput) {
        self.journal = journal
        self.output = output
    }

    /// Marks rows as sent before their requests are written.
    func markSent(lines: [Int]) throws(JournalError) {
        try journal.markSent(lines: lines)
    }

    /// Commits `outcomes` in one transaction, then prints the final ones.
    func commit(_ outcomes: [RowOutcome]) throws(JournalError) {
        guard !outcomes.isEmpty else { return }
        try journal.record(outcomes.map {
            JournalUpdate(line: $0.line, status: $0.status, error: $0.error, retryable: $0.retryable,
                          uncertain: $0.uncertain, profile: $0.profile?.journalText)
        })
        for outcome in outcomes where outcome.status.isFinal {
            finishedThisRun += 1
            output.row(outcome)
        }
        output.progress(finishedThisRun)
    }
}
