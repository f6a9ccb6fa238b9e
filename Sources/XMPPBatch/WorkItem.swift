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
    /// The row, held once behind a reference: the engines' lists of items are copied and
    /// filtered, and a row inline is ~300 bytes each time (32 MB a copy at 100,000 rows).
    var row: BatchRow {
        get { held.row }
        set { held = HeldRow(newValue) }
    }
    private var held: HeldRow
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

    init(row: BatchRow, password: String?, newPassword: String? = nil, source: RowPasswordOrigin = .csv, uncertain: Bool,
         attempts: Int = 0) {
        held = HeldRow(row)
        self.password = password
        self.newPassword = newPassword
        self.source = source
        self.uncertain = uncertain
        self.attempts = attempts
    }
}

/// A row, immutable, shared by the copies of a `WorkItem` (changing an item's row replaces it).
private final class HeldRow: Sendable {
    let row: BatchRow
    init(_ row: BatchRow) { self.row = row }
}
