/// Where one row of a batch stands. `pending`, `sent` and `conflict` are unfinished; every
/// other state is an outcome.
public enum JournalStatus: String, Sendable, CaseIterable {
    /// Not attempted yet, or to be attempted again.
    case pending
    /// A request left for the server and no definitive answer has been recorded: it may or may
    /// not have taken effect.
    case sent
    /// The server said the account exists; a follow-up that logs in (update, or checking that
    /// an earlier unanswered request created it) is still to run.
    case conflict
    /// The account was created; its profile columns are still to be set (a follow-up logs in).
    /// The server did create it, so summaries count it, but the row is not finished.
    case registered
    /// The account was created.
    case created
    /// The account already existed.
    case exists
    /// The account existed and was updated.
    case updated
    /// The account was deleted.
    case deleted
    /// The password was changed.
    case changed
    /// An account invite (XEP-0401) was created for the row; the report has its URI.
    case invited
    /// The row failed; `error` says why.
    case failed
    /// The row did not pass validation and was never sent.
    case invalid

    /// True for outcomes, false for work still to do.
    public var isFinal: Bool {
        switch self {
        case .pending, .sent, .conflict, .registered: return false
        default: return true
        }
    }
}

/// One row of a batch as the journal records it.
public struct JournalEntry: Sendable, Equatable {
    /// The CSV line the row starts on (1-based); the row's identity within the batch.
    public var line: Int
    /// The bare JID, or the raw text of an invalid row.
    public var jid: String
    /// Where the row stands.
    public var status: JournalStatus
    /// Why it failed or was invalid (a success with an error, e.g. a profile the server refused, still needs attention).
    public var error: String?
    /// A failure that a later `--resume` should try again (network, throttling).
    public var retryable: Bool
    /// An earlier request may have reached the server without a definitive answer.
    public var uncertain: Bool
    /// Requests sent for this row so far.
    public var attempts: Int
    /// A password this batch generated when the row was first sent, or the one an earlier
    /// report of the batch holds (kept here so a resumed run uses the same one and the report
    /// can always be rebuilt). Wiped once a finished run's report holds it.
    public var generatedPassword: String?
    /// Profile columns state: nil (none), `applied`, or `pending:col,col`.
    public var profile: String?
    /// The password came from an earlier report: the account may have it, so it is never
    /// dropped (a password generated here is dropped when the server did not set it).
    public var passwordKept: Bool
    /// A remark on a success that is no error (e.g. `no such account` for a delete).
    public var note: String?
    /// Where the row's roster (the batch's contacts column) stands: nil (none), `pending`,
    /// `requested` (subscriptions asked), `done` (approved both ways) or `failed`.
    public var roster: String?

    /// Builds an entry.
    public init(line: Int, jid: String, status: JournalStatus, error: String? = nil, retryable: Bool = false,
                uncertain: Bool = false, attempts: Int = 0, generatedPassword: String? = nil, profile: String? = nil,
                passwordKept: Bool = false, note: String? = nil, roster: String? = nil) {
        self.line = line
        self.jid = jid
        self.status = status
        self.error = error
        self.retryable = retryable
        self.uncertain = uncertain
        self.attempts = attempts
        self.generatedPassword = generatedPassword
        self.profile = profile
        self.passwordKept = passwordKept
        self.note = note
        self.roster = roster
    }
}

/// A change to one row, recorded together with others in one transaction.
public struct JournalUpdate: Sendable, Equatable {
    /// The row's line.
    public var line: Int
    /// Its new status.
    public var status: JournalStatus
    /// The error, if any.
    public var error: String?
    /// For failures: worth trying again on `--resume`.
    public var retryable: Bool
    /// Whether an unanswered request may have taken effect.
    public var uncertain: Bool
    /// Profile state to store; nil leaves it unchanged.
    public var profile: String?
    /// The note to store (replacing any earlier one).
    public var note: String?
    /// The server did not set the row's password (the account existed, or the request was
    /// refused): forget a password generated for it, so no report shows one that never worked.
    public var dropPassword: Bool
    /// The server has just set the CSV's password: a password an earlier report gave is stale.
    public var dropKeptPassword: Bool

    /// Builds an update.
    public init(line: Int, status: JournalStatus, error: String? = nil, retryable: Bool = false,
                uncertain: Bool = false, profile: String? = nil, note: String? = nil, dropPassword: Bool = false,
                dropKeptPassword: Bool = false) {
        self.line = line
        self.status = status
        self.error = error
        self.retryable = retryable
        self.uncertain = uncertain
        self.profile = profile
        self.note = note
        self.dropPassword = dropPassword
        self.dropKeptPassword = dropKeptPassword
    }
}
