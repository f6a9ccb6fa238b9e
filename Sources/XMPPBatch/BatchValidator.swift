import TextFormats
import PNGImage
import XMPPStanzas
import XMPPStorage

/// Checks every row before anything is sent: JID syntax, duplicates, passwords, profile values,
/// avatar files. A bad row becomes an `InvalidRow` naming its line and the problem.
struct BatchValidator {
    let columns: BatchColumns
    let configuration: BatchConfiguration
    /// Directory relative avatar paths are resolved against (the CSV's, or the working directory).
    let baseDirectory: String
    /// Largest avatar source file read for checking.
    var maxAvatarBytes = 32 << 20
    private var avatarChecks: [String: String?] = [:]
    /// The accounts of the rows checked so far.
    private var firstLines = AccountFirstLines()

    /// A validator for rows under `columns`; relative avatar paths are taken from `baseDirectory`.
    init(columns: BatchColumns, configuration: BatchConfiguration, baseDirectory: String) {
        self.columns = columns
        self.configuration = configuration
        self.baseDirectory = baseDirectory
    }

    /// Checks `records` (the data rows, header excluded), in order.
    mutating func check(_ records: [CSVRecord]) -> [CheckedRow] {
        records.compactMap { record in checkRow(record).map { telling(duplicate: $0) } }
    }

    /// Checks the next data record; nil for a row of empty fields (what a spreadsheet exports
    /// for a row that once held something), which is no row. Duplicates are `telling`'s.
    mutating func checkRow(_ record: CSVRecord) -> CheckedRow? {
        guard !record.fields.allSatisfy({ $0.trimmingWhitespace().isEmpty }) else { return nil }
        return check(record)
    }

    /// `checked`, made invalid when it is valid and an account an earlier row given here has.
    /// (Duplicates have the same account, so the same shard: a shard's rows alone are enough.)
    mutating func telling(duplicate checked: CheckedRow) -> CheckedRow {
        guard case .valid(let row) = checked, let first = firstLines.firstLine(of: row.jid, line: row.line) else { return checked }
        return .invalid(InvalidRow(line: row.line, jidText: row.jid.description, reason: "duplicate of line \(first) (\(row.jid))"))
    }

    /// Checks one record.
    mutating func check(_ record: CSVRecord) -> CheckedRow {
        let rawJID = (columns.value("jid", in: record) ?? columns.value("username", in: record) ?? "").trimmingWhitespace()
        func invalid(_ reason: String) -> CheckedRow { .invalid(InvalidRow(line: record.line, jidText: rawJID, reason: reason)) }

        if record.fields.count > columns.count, record.fields[columns.count...].contains(where: { !$0.isEmpty }) {
            return invalid("\(record.fields.count) fields but the header has \(columns.count) (a comma in an unquoted value?)")
        }
        if record.fields.count < columns.count {
            return invalid("\(record.fields.count) field\(record.fields.count == 1 ? "" : "s") where the header has \(columns.count) "
                           + "(a missing delimiter, or a line break outside quotes?)")
        }
        let jid: JID
        switch account(rawJID) {
        case .success(let j): jid = j
        case .failure(let f): return invalid(f.message)
        }
        let password = columns.value("password", in: record)
        let needsPassword = (configuration.mode == .create || !configuration.admin) && !configuration.invite
        if needsPassword && password == nil && !(configuration.mode == .create && configuration.generatePasswords) {
            return invalid("missing password")
        }
        if let password, let problem = BatchValidator.passwordProblem(password) { return invalid("password \(problem)") }
        var newPassword: String?
        if configuration.mode == .passwd {
            newPassword = columns.value("new_password", in: record)
            if newPassword == nil && !configuration.generatePasswords { return invalid("missing new_password") }
            if let p = newPassword, let problem = BatchValidator.passwordProblem(p) { return invalid("new_password \(problem)") }
        }
        var profile = ProfileColumns()
        var roster = RosterColumns()
        if configuration.mode == .create {
            roster.groups = BatchValidator.list(columns.value("groups", in: record))
            roster.contacts = BatchValidator.list(columns.value("contacts", in: record))
            for group in roster.groups + roster.contacts {
                if let problem = BatchValidator.textProblem(group) { return invalid("groups or contacts entry \(problem)") }
            }
            profile.nickname = columns.value("nickname", in: record)
            profile.fullname = columns.value("fullname", in: record)
            profile.email = columns.value("email", in: record)?.trimmingWhitespace()
            for (name, value) in [("nickname", profile.nickname), ("fullname", profile.fullname)] {
                if let value, let problem = BatchValidator.textProblem(value) { return invalid("\(name) \(problem)") }
            }
            if let email = profile.email, !BatchValidator.isPlausibleEmail(email) {
                return invalid("email '\(email)' is not an address like name@example.org")
            }
            if let avatar = columns.value("avatar", in: record)?.trimmingWhitespace() {
                if avatar.lowercased().hasPrefix("data:") {
                    // An image given inline (an LDIF's jpegPhoto): checked here, kept in memory.
                    guard let bytes = DataURI.bytes(avatar) else { return invalid("avatar: a data: URI that is not base 64") }
                    guard bytes.count <= maxAvatarBytes else { return invalid("avatar: an image larger than \(maxAvatarBytes >> 20) MiB") }
                    if let problem = BatchValidator.imageProblem(bytes) { return invalid("avatar (inline image): \(problem)") }
                    profile.avatar = .image(bytes)
                } else {
                    let path = PathText.absolute(avatar, from: baseDirectory)
                    if let problem = avatarProblem(path) { return invalid("avatar \(avatar): \(problem)") }
                    profile.avatar = .file(path)
                }
            }
        }
        return .valid(BatchRow(line: record.line, jid: jid, password: password, newPassword: newPassword, profile: profile, roster: roster))
    }

    /// The bare account JID for the text of a `jid` or `username` cell.
    func account(_ raw: String) -> Result<JID, RowProblem> {
        guard !raw.isEmpty else { return .failure(RowProblem("missing " + (columns.index["jid"] != nil ? "jid" : "username"))) }
        var text = raw
        if columns.index["username"] != nil {
            guard !raw.contains("@") else {
                return .failure(RowProblem("username '\(raw)' contains '@' (use a 'jid' column for full addresses)"))
            }
        }
        if !text.contains("@") {
            guard let domain = configuration.domain else {
                return .failure(RowProblem("'\(raw)' has no domain: write user@domain, or pass --domain"))
            }
            text += "@" + domain
        }
        do {
            let jid = try JID(text)
            guard jid.local != nil else { return .failure(RowProblem("'\(JID.printable(raw))' has no user part")) }
            guard jid.isBare else { return .failure(RowProblem("'\(JID.printable(raw))' has a resource; an account is user@domain")) }
            return .success(jid)
        } catch {
            return .failure(RowProblem("invalid JID '\(JID.printable(raw))': \(error)"))
        }
    }

    /// What is wrong with a row's JID, in one line.
    struct RowProblem: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Why a password cannot be used, if it cannot.
    static func passwordProblem(_ password: String) -> String? {
        if password.utf8.count > 1023 { return "is longer than 1023 bytes" }
        if password.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "contains a control character (a line break inside quotes?)"
        }
        return nil
    }

    /// The items of a `;`-separated cell, trimmed, empty ones left out, each once.
    static func list(_ cell: String?) -> [String] {
        guard let cell else { return [] }
        var seen: Set<String> = []
        return SemicolonList.split(cell).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Why a nickname or full name cannot be used, if it cannot.
    static func textProblem(_ text: String) -> String? {
        if text.utf8.count > 1023 { return "is longer than 1023 bytes" }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "contains a control character" }
        return nil
    }

    /// A deliberately loose check: one `@`, something on both sides, a dot in the domain, no spaces.
    static func isPlausibleEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !parts[1].hasPrefix("."), !parts[1].hasSuffix(".") else { return false }
        return !email.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 }
    }

    /// Why the avatar at `path` is unusable (unreadable, too big, not an image); checked once per path.
    mutating func avatarProblem(_ path: String) -> String? {
        if let known = avatarChecks[path] { return known }
        let problem: String?
        do {
            if let bytes = try SecureFile.read(path, maxBytes: maxAvatarBytes) {
                problem = BatchValidator.imageProblem(bytes)
            } else {
                problem = "no such file"
            }
        } catch {
            if case .corrupt = error { problem = "larger than \(maxAvatarBytes >> 20) MiB" } else { problem = "cannot read it (\(error))" }
        }
        avatarChecks[path] = problem
        return problem
    }

    private static func imageProblem(_ bytes: [UInt8]) -> String? {
        do {
            let info = try AvatarPipeline.info(data: bytes)
            return info.width > 0 && info.height > 0 ? nil : "the image has no pixels"
        } catch {
            return error.description
        }
    }
}
