import XMPPConnection
import XMPPStanzas

/// Where a row's password (`--passwd`: its new password) comes from.
enum RowPasswordOrigin: Sendable, Equatable {
    /// The CSV gives it.
    case csv
    /// An earlier report of this batch gave it (the account was made with it).
    case report
    /// This batch generates it, when the row is first sent (nil until then).
    case generated
}

/// A row the engines work on: the validated row, its password, and what this run knows of it.
struct WorkItem: Sendable {
    var row: BatchRow
    /// The password to register or log in with (from the CSV or the journal); nil until a
    /// generated one is made, just before the row's first registration is sent.
    var password: String?
    /// `--passwd`: the password to change to; nil until generated, just before the change.
    var newPassword: String?
    /// Where `password` (`--passwd`: `newPassword`) comes from.
    var source: RowPasswordOrigin = .csv
    /// An earlier request may have reached the server without an answer.
    var uncertain: Bool
    /// Requests sent for this row in this run.
    var attempts = 0
}
