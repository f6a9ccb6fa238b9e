import TextFormats
import XMPPStorage

/// A batch or sync report read for handing its accounts out (`xmpp-register handout`): each
/// row's person, address and secret (the generated password, or the invite), and when its slip
/// was printed — the `handed_out` column, a UTC time the handout adds after the report's own
/// columns (which keep their names and order) and that later runs carry over (`HandoutStamps`).
public struct HandoutReport: Sendable {
    /// What a slip gives to sign in with.
    public enum Secret: Sendable, Equatable {
        case password(String)
        case invite(String)
    }

    /// One row of the report that has a secret to hand out.
    public struct Row: Sendable, Equatable {
        /// The report's line (the CSV's line; nil for a row `kept` from an earlier report).
        public var line: Int?
        public var jid: String
        public var name: String
        /// The row's groups, in the CSV's order (empty when it has none or the report no groups column).
        public var groups: [String]
        public var secret: Secret
        /// When its slip was printed (the `handed_out` field), nil when never.
        public var handedOut: String?
        /// When its invite stops working, as the server said (XEP-0082): sync's `invite_expires`
        /// column, or batch's note "valid until …"; nil when unknown.
        public var inviteExpires: String?
        /// Its record in the report (1 is the first after the header).
        var record: Int
    }

    public let path: String
    /// The rows with a password or an invite, in the report's order.
    public private(set) var rows: [Row] = []
    /// Rows without either (an account that existed with its own password), or whose account
    /// was not made (failed, invalid, deleted, unfinished): no slip.
    public private(set) var withoutSlip = 0

    /// The statuses of rows whose account exists with the report's password, or whose invite was
    /// made: `kept` is an earlier report's row the CSV no longer lists.
    static let handedOutStatuses: Set<String> = [
        JournalStatus.created.rawValue, JournalStatus.registered.rawValue, JournalStatus.exists.rawValue,
        JournalStatus.updated.rawValue, JournalStatus.changed.rawValue, JournalStatus.invited.rawValue, "kept",
    ]
    /// The report has a groups column.
    public let hasGroups: Bool
    /// The report's records as read (fields restored), header first.
    private var records: [[String]]
    /// How it is written: a report split by group is in the batch input's dialect, and stays so.
    private let dialect: CSVDialect

    /// Reads the report at `path`: the user's own file in a directory nobody else can write in,
    /// as `--report` requires of the file it writes (it holds passwords), with a jid, status and
    /// password or invite column.
    public init(path: String) throws(BatchError) {
        self.path = path
        guard let read = try BatchReport.restoredReport(at: path) else { throw .unreadableReport(path: path, reason: "no such file") }
        records = read.records.map(\.fields)
        dialect = read.dialect
        guard let header = records.first, let jidColumn = header.firstIndex(of: "jid"), header.contains("status") else {
            throw .notAReport(path: path, reason: "no jid and status columns")
        }
        let passwordColumn = header.firstIndex(of: "password")
        let inviteColumn = header.firstIndex(of: "invite")
        guard passwordColumn != nil || inviteColumn != nil else {
            throw .notAReport(path: path, reason: "no password or invite column: the batch's CSV gave the passwords, so there is nothing to hand out "
                              + "(run the batch with --generate-passwords or --invite and --report)")
        }
        let lineColumn = header.firstIndex(of: "line")
        let nameColumn = header.firstIndex(of: "name")
        let groupsColumn = header.firstIndex(of: "groups")
        let stampColumn = header.firstIndex(of: HandoutStamps.column)
        let statusColumn = header.firstIndex(of: "status")
        let expiresColumn = header.firstIndex(of: "invite_expires"), noteColumn = header.firstIndex(of: "note")
        hasGroups = groupsColumn != nil
        for index in records.indices.dropFirst() {
            let fields = records[index]
            func field(_ column: Int?) -> String { column.flatMap { $0 < fields.count ? fields[$0] : nil } ?? "" }
            let secret: Secret
            guard Self.handedOutStatuses.contains(field(statusColumn)) else { withoutSlip += 1; continue }
            if !field(inviteColumn).isEmpty { secret = .invite(field(inviteColumn)) }
            else if !field(passwordColumn).isEmpty { secret = .password(field(passwordColumn)) }
            else { withoutSlip += 1; continue }
            let stamp = field(stampColumn)
            var expires = field(expiresColumn)
            if expires.isEmpty, case .invite = secret, field(noteColumn).hasPrefix("valid until ") {
                expires = String(field(noteColumn).dropFirst("valid until ".count))
            }
            rows.append(Row(line: Int(field(lineColumn)), jid: field(jidColumn), name: field(nameColumn),
                            groups: field(groupsColumn).isEmpty ? [] : SemicolonList.split(field(groupsColumn)),
                            secret: secret, handedOut: stamp.isEmpty ? nil : stamp, inviteExpires: expires.isEmpty ? nil : expires,
                            record: index))
        }
    }

    /// Every group the rows name, in the order they first appear.
    public var groups: [String] {
        var seen: Set<String> = []
        var out: [String] = []
        for row in rows { for group in row.groups where seen.insert(group).inserted { out.append(group) } }
        return out
    }

    /// The rows to print: those of `group` (a row in several groups is in each), or every row;
    /// only those never handed out unless `all`.
    public func selection(group: String?, all: Bool) -> [Row] {
        rows.filter { row in (all || row.handedOut == nil) && (group.map { row.groups.contains($0) } ?? true) }
    }

    /// The report with `handed` rows stamped `stamp` in its `handed_out` column (added at the
    /// end when the report has none), every other field as it was, in the file's dialect.
    public func stamped(_ handed: [Row], at stamp: String) -> [UInt8] {
        var records = self.records
        var column = records[0].firstIndex(of: HandoutStamps.column)
        if column == nil {
            column = records[0].count
            for index in records.indices { records[index].append(index == 0 ? HandoutStamps.column : "") }
        }
        guard let column else { return [] }
        for row in handed {
            while records[row.record].count <= column { records[row.record].append("") }
            records[row.record][column] = stamp
        }
        var text = ""
        for record in records { text += CSVWriter.record(record) }
        return dialect.rewrite(Array(text.utf8))
    }

    /// Writes the stamped report back in place of the one read (atomically, mode 0600).
    public func markHandedOut(_ handed: [Row], at stamp: String) throws(StorageError) {
        try SecureFile.writeSecret(stamped(handed, at: stamp), to: path)
        try BatchReport.syncDirectory(of: path)
    }

    /// Refuses a place for the slips' PDF (which holds the passwords) that `--report` would be
    /// refused for: a directory another user can write in (`FileTrust`). Writing it with
    /// `SecureFile.writeSecret` refuses a symbolic link and a file another user owns.
    public static func checkDestination(_ path: String) throws(StorageError) {
        try FileTrust.requireSafeDirectory(BatchReport.directory(of: path))
    }

    /// Now, as the `handed_out` column records it: UTC, to the second (2026-12-04T18:30:05Z).
    public static func now() -> String { SyncClock.now() }
}
