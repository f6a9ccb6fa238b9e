import TextFormats
import XMPPStanzas

/// The files `export` writes and `import` reads: a JSON array of contacts (as `export` and
/// `list --json` print) or CSV with a header naming `jid` or `username` (columns jid or username,
/// name, groups, subscription, ask; groups separated by ';', with '\;' and '\\' for a literal ';'
/// and '\').
enum RosterFile {
    /// One contact of an import file; nil fields were not given and are left as they are.
    struct Entry: Equatable {
        var jid: String
        var name: String??
        var groups: [String]?
        var subscription: Subscription?
        var ask: Bool

        /// Whether the exported account was subscribed to the contact (or asked to be), or the
        /// file does not say: then an import asks to see the contact's presence again.
        var wantsSubscription: Bool {
            guard let subscription else { return true }
            return subscription.receivesPresence || ask
        }
    }

    /// Largest file read.
    static let maxBytes = 16 << 20

    /// Reads entries from JSON or CSV, telling them apart by the first character; a CSV
    /// `username` column means users on `domain` (nil: on the account's own domain).
    static func parse(_ bytes: [UInt8], domain: String? = nil) throws(ToolFailure) -> [Entry] {
        guard bytes.count <= maxBytes else { throw ToolFailure(.badInput, "the roster file is larger than \(maxBytes >> 20) MiB") }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") { return try parseJSON(bytes) }
        return try parseCSV(bytes, domain: domain)
    }

    /// True when `text` can be sent in XML (no control characters other than tab, LF, CR).
    static func isValidText(_ text: String) -> Bool {
        !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r") || $0.value == 0xFFFE || $0.value == 0xFFFF }
    }

    // MARK: JSON

    private static func parseJSON(_ bytes: [UInt8]) throws(ToolFailure) -> [Entry] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(Array(bytes.drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }))
        } catch {
            throw ToolFailure(.badInput, "invalid JSON roster: \(error)")
        }
        var list = document
        if case .object(let members) = document, let contacts = members.first(where: { $0.0 == "contacts" })?.1 { list = contacts }
        guard case .array(let values) = list else { throw ToolFailure(.badInput, "invalid JSON roster: expected an array of contacts") }
        var entries: [Entry] = []
        for (i, value) in values.enumerated() {
            entries.append(try entry(value, number: i + 1))
        }
        return entries
    }

    private static func entry(_ value: JSONValue, number: Int) throws(ToolFailure) -> Entry {
        func bad(_ why: String) -> ToolFailure { ToolFailure(.badInput, "invalid contact #\(number) in the roster file: \(why)") }
        guard case .object(let members) = value else { throw bad("expected an object") }
        func member(_ key: String) -> JSONValue? { members.first { $0.0 == key }?.1 }
        guard case .string(let jid)? = member("jid") else { throw bad("\"jid\" must be a string") }
        var entry = Entry(jid: jid, name: nil, groups: nil, subscription: nil, ask: false)
        switch member("name") {
        case nil: break
        case .null?: entry.name = .some(nil)
        case .string(let s)?: entry.name = .some(s.isEmpty ? nil : s)
        default: throw bad("\"name\" must be a string or null")
        }
        if let groups = member("groups") {
            guard case .array(let list) = groups else { throw bad("\"groups\" must be an array of strings") }
            var names: [String] = []
            for g in list {
                guard case .string(let s) = g else { throw bad("\"groups\" must be an array of strings") }
                names.append(s)
            }
            entry.groups = names
        }
        switch member("subscription") {
        case nil, .null?: break
        case .string(let s)?:
            guard let sub = Subscription(rawValue: s), sub != .remove else { throw bad("unknown subscription '\(s)'") }
            entry.subscription = sub
        default: throw bad("\"subscription\" must be a string")
        }
        if case .bool(let b)? = member("ask") { entry.ask = b }
        return entry
    }

    // MARK: CSV

    private static func parseCSV(_ bytes: [UInt8], domain: String?) throws(ToolFailure) -> [Entry] {
        let table: CSVTable?
        do {
            table = try CSVReader.table(bytes)
            if let short = table?.shortRow { throw short }
        } catch {
            throw ToolFailure(.badInput, "invalid roster CSV: \(error)")
        }
        guard let table else { return [] }
        let header = table.header.fields.map { $0.trimmingWhitespace().lowercased() }
        let usernameColumn = header.firstIndex(of: "username")
        if header.contains("jid") && usernameColumn != nil {
            throw ToolFailure(.badInput, "invalid roster CSV: give either a 'jid' or a 'username' column, not both")
        }
        guard let jidColumn = header.firstIndex(of: "jid") ?? usernameColumn else {
            throw ToolFailure(.badInput, "invalid roster CSV: the first line must be a header naming a 'jid' (or 'username') column")
        }
        let column = { (name: String) in header.firstIndex(of: name) }
        var entries: [Entry] = []
        for record in table.rows {
            // What export neutralised for spreadsheets (`'=…`) reads back as it was.
            let row = record.fields.map(CSVWriter.restored)
            func cell(_ i: Int?) -> String? { i.flatMap { $0 < row.count ? row[$0] : nil } }
            var entry = Entry(jid: cell(jidColumn) ?? "", name: nil, groups: nil, subscription: nil, ask: false)
            if usernameColumn != nil {
                let user = entry.jid.trimmingWhitespace()
                guard !user.unicodeScalars.contains("@") else {
                    throw ToolFailure(.badInput, "invalid roster CSV line \(record.line): username '\(JID.printable(user))' contains '@' "
                                      + "(use a 'jid' column for full addresses)")
                }
                if let domain, !user.isEmpty { entry.jid = user + "@" + domain }
            }
            if let name = cell(column("name")) { entry.name = .some(name.isEmpty ? nil : name) }
            if let groups = cell(column("groups")) { entry.groups = splitGroups(groups) }
            if let sub = cell(column("subscription"))?.trimmingWhitespace(), !sub.isEmpty {
                guard let value = Subscription(rawValue: sub), value != .remove else {
                    throw ToolFailure(.badInput, "invalid roster CSV line \(record.line): unknown subscription '\(sub)'")
                }
                entry.subscription = value
            }
            entry.ask = cell(column("ask"))?.trimmingWhitespace().lowercased() == "true"
            entries.append(entry)
        }
        return entries
    }

    /// `a;b\;c` → ["a", "b;c"], empty groups left out.
    static func splitGroups(_ text: String) -> [String] {
        SemicolonList.split(text).filter { !$0.isEmpty }
    }

    /// ["a", "b;c"] → `a;b\;c`.
    static func joinGroups(_ groups: [String]) -> String {
        groups.map(SemicolonList.escape).joined(separator: ";")
    }

    /// The CSV export.
    static func csv(_ items: [RosterItem]) -> String {
        var out = CSVWriter.record(["jid", "name", "groups", "subscription", "ask"])
        for item in items {
            let cells = [item.jid.description, item.name ?? "", joinGroups(item.groups), item.subscription.rawValue,
                         item.ask ? "true" : "false"]
            out += CSVWriter.record(cells)
        }
        return out
    }
}
