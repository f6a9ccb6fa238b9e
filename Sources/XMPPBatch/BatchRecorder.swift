import XMPPStorage

/// What happened to one row: a final outcome, or a step back into the queue.
public struct RowOutcome: Sendable, Equatable {
    public var line: Int
    public var jid: String
    public var status: JournalStatus
    /// Why it failed (or why a success still needs attention); nil for a clean success.
    public var error: String?
    /// A failure worth retrying with `--resume`.
    public var retryable = false
    /// An unanswered earlier request may have taken effect.
    public var uncertain = false
    /// The profile columns' state, for rows that have any.
    public var profile: ProfileState?
    /// A remark on a success that is no error (`no such account` for a delete).
    public var note: String?
    /// The server has just set the row's password (or new_password) from the CSV.
    public var csvPasswordSet = false
    /// The server answered this row's request with a refusal of every request (registration
    /// closed to this client): the row stays to do, but the password was not set.
    var refusedByServer = false

    /// Builds an outcome.
    public init(line: Int, jid: String, status: JournalStatus, error: String? = nil, retryable: Bool = false,
                uncertain: Bool = false, profile: ProfileState? = nil, note: String? = nil, csvPasswordSet: Bool = false) {
        self.line = line
        self.jid = jid
        self.status = status
        self.error = error
        self.retryable = retryable
        self.uncertain = uncertain
        self.profile = profile
        self.note = note
        self.csvPasswordSet = csvPasswordSet
    }

    /// The outcome of a row that did not pass the checks.
    public init(invalid row: InvalidRow) {
        self.init(line: row.line, jid: row.jidText, status: .invalid, error: row.reason)
    }

    /// The server definitely did not set this row's password: the account existed, or the
    /// request was refused with no earlier one unanswered. A generated password is then dropped.
    var passwordNotSet: Bool {
        status == .exists || ((status == .failed && !retryable) || refusedByServer) && !uncertain
    }

    /// True when the row is done and nothing about it failed.
    public var succeeded: Bool { status.isFinal && status != .failed && status != .invalid && error == nil }
}

/// Who hears of a run's progress (the command line prints it): each row's final outcome once it
/// is in the journal, and the count of rows this run finished. Called from the run's one thread
/// (its poll loops).
public protocol BatchEvents: AnyObject {
    /// A row has its final outcome, committed to the journal.
    func rowFinished(_ outcome: RowOutcome)
    /// This run has finished `count` rows (created ones whose profile is still to set included).
    func rowsFinished(_ count: Int)
    /// Something learned about the server that changes how the run proceeds (one line).
    func serverNote(_ text: String)
    /// The roster phase's `pass` (1: requests, 2: approvals) has finished `done` of `total` accounts.
    func rosterProgress(pass: Int, done: Int, total: Int)
}

extension BatchEvents {
    /// Listeners that print nothing about the server ignore it.
    public func serverNote(_ text: String) {}
    /// Listeners without a progress display ignore it.
    public func rosterProgress(pass: Int, done: Int, total: Int) {}
}

/// Records outcomes in the journal first, then reports them: what is printed or written to the
/// report has always been committed, so a crash can only lose output, never the record.
final class BatchRecorder {
    let journal: BatchJournal
    let events: BatchEvents
    /// Rows this run finished (or created, with their profile still to set).
    private(set) var finishedThisRun = 0
    private var counted: Set<Int> = []
    /// Rows whose roster this run finished (done), counted once each.
    private(set) var rostersThisRun = 0
    private var rostersCounted: Set<Int> = []

    init(journal: BatchJournal, events: BatchEvents) {
        self.journal = journal
        self.events = events
    }

    /// Marks rows as sent before their requests are written, with the passwords generated for them.
    func note(_ text: String) { events.serverNote(text) }

    func markSent(lines: [Int], generated: [Int: String] = [:]) throws(JournalError) {
        try journal.markSent(lines: lines, generated: generated)
    }

    /// Commits `outcomes` in one transaction, then reports the final ones.
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
            if outcome.status.isFinal { events.rowFinished(outcome) }
        }
        events.rowsFinished(finishedThisRun)
    }

    /// Commits roster states; counts the rosters this run finished.
    func recordRoster(_ updates: [(line: Int, state: String, error: String?)]) throws(JournalError) {
        try journal.recordRoster(updates)
        for u in updates where u.state == RosterPhase.State.done.rawValue && rostersCounted.insert(u.line).inserted {
            rostersThisRun += 1
        }
    }
}
