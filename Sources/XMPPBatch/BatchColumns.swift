import TextFormats

/// Where each known column sits in the CSV, read from its header row (names in any order,
/// case-insensitive, surrounding spaces ignored, and the spellings spreadsheets use: "Full name",
/// "E-mail", "Class").
public struct BatchColumns: Sendable, Equatable {
    /// Every column this tool understands.
    static let known = ["jid", "username", "password", "new_password", "nickname", "fullname", "email", "avatar", "groups", "contacts"]
    /// Other names of the known columns, compared as `comparable(_:)` gives them: letters and
    /// digits only, lower case ("E-mail" and "e_mail" are "email").
    static let aliases: [String: String] = [
        "newpassword": "new_password",
        "user": "username", "userid": "username", "login": "username", "uid": "username",
        "xmpp": "jid", "xmppaddress": "jid", "jabberid": "jid",
        "pass": "password", "passwd": "password",
        "nick": "nickname",
        "name": "fullname", "displayname": "fullname", "fn": "fullname",
        "mail": "email", "emailaddress": "email",
        "photo": "avatar", "picture": "avatar", "image": "avatar",
        "group": "groups", "class": "groups", "classes": "groups",
        "contact": "contacts",
    ]

    /// The known column a header name stands for, if any.
    static func canonical(_ name: String) -> String? {
        let key = comparable(name)
        if let column = known.first(where: { comparable($0) == key }) { return column }
        return aliases[key]
    }

    /// `name` with only its letters and digits, lower-cased.
    static func comparable(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil })
    }
    /// The columns applied after registration.
    public static let profileColumns = ["nickname", "fullname", "email", "avatar"]
    /// The columns that build rosters between the batch's accounts (`RosterPlan`).
    static let rosterColumns = ["groups", "contacts"]

    /// Index of each known column present.
    var index: [String: Int]
    /// How many columns the header has.
    var count: Int
    /// Header names this tool does not know (ignored, with a warning).
    public var unknown: [String]
    /// The known column nearest to each unknown name that is close to one ("did you mean").
    public var suggestions: [String: String] = [:]

    /// Reads the header and checks the columns the configured mode needs.
    init(header: CSVRecord, configuration: BatchConfiguration) throws(BatchError) {
        let mode = configuration.mode
        index = [:]
        unknown = []
        count = header.fields.count
        for (i, raw) in header.fields.enumerated() {
            let name = raw.trimming { $0.properties.isWhitespace || $0 == "\"" || $0 == "\u{FEFF}" }.lowercased()  // stray quotes some spreadsheets leave
            guard !name.isEmpty else { continue }
            let column = BatchColumns.canonical(name)
            guard column.map({ index[$0] == nil }) ?? !unknown.contains(name) else {
                let same = column.map { $0 == name ? "" : " ('\(name)' is the \($0) column)" } ?? ""
                throw BatchError.badHeader("line \(header.line): the column '\(column ?? name)' appears twice in the header\(same)")
            }
            if let column {
                index[column] = i
            } else {
                unknown.append(name)
                suggestions[name] = Suggestion.closest(to: BatchColumns.comparable(name), among: BatchColumns.known.map(BatchColumns.comparable))
                    .flatMap { key in BatchColumns.known.first { BatchColumns.comparable($0) == key } }
            }
        }
        // An LDIF's header is its --map (line 0): errors name that instead of a line.
        let at = header.line > 0 ? "line \(header.line): " : "--map: "
        let theHeader = header.line > 0 ? "the header" : "the map"
        let found = index
        let has = { (name: String) in found[name] != nil }
        if has("jid") && has("username") {
            throw BatchError.badHeader("\(at)give either a 'jid' or a 'username' column, not both")
        }
        if !has("jid") && !has("username") {
            let seen = header.fields.joined(separator: ",")
            throw BatchError.badHeader("\(at)\(theHeader) needs a 'jid' column (or 'username' with --domain); found: \(seen)")
        }
        if has("username") && configuration.domain == nil { throw BatchError.usernameNeedsDomain }
        // An administrator deletes and re-passwords accounts without their passwords.
        let needsPassword = (mode == .create || !configuration.admin) && !configuration.invite
        if needsPassword && !has("password") && !(mode == .create && configuration.generatePasswords) {
            throw BatchError.badHeader("\(at)\(theHeader) needs a 'password' column"
                + (mode == .create ? " (or pass --generate-passwords)" : ""))
        }
        if mode == .create && has("contacts") {
            // Both sides of every pair log in to approve each other (`RosterPhase`).
            if configuration.invite {
                throw BatchError.badHeader("\(at)the contacts column needs the accounts' passwords, which --invite does not handle")
            }
            if configuration.shard != nil {
                throw BatchError.badHeader("\(at)the contacts column needs every row in one run; leave out --shard")
            }
        }
        if mode == .passwd && !has("new_password") && !configuration.generatePasswords {
            throw BatchError.badHeader("\(at)--passwd needs a 'new_password' column (or --generate-passwords)")
        }
    }

    /// The value of `name` in `record`, nil when the column is absent or the field empty.
    func value(_ name: String, in record: CSVRecord) -> String? {
        guard let i = index[name], i < record.fields.count, !record.fields[i].isEmpty else { return nil }
        return record.fields[i]
    }

    /// The profile columns present in the header.
    public var presentProfileColumns: [String] { BatchColumns.profileColumns.filter { index[$0] != nil } }

    /// The roster columns present in the header.
    public var presentRosterColumns: [String] { BatchColumns.rosterColumns.filter { index[$0] != nil } }
}
