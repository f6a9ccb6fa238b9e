import CryptoPrimitives
import TextFormats

/// `--map`: which LDAP attribute fills which batch column when the input is LDIF, as
/// `ATTR=COLUMN,ATTR=COLUMN…` (`uid=username,cn=fullname,jpegPhoto=avatar,ou=groups`). Several
/// attributes may fill one column: the first of them an entry has gives its values
/// (`displayName=fullname,cn=fullname`: the display name, else the common name). Attributes
/// not named are ignored; a named one an entry lacks leaves its column empty.
public struct DirectoryMap: Sendable, Equatable, CustomStringConvertible {
    /// The map used without `--map`: inetOrgPerson (RFC 2798) as directories hold people.
    public static let inetOrgPerson = "uid=username,displayName=fullname,cn=fullname,mail=email,jpegPhoto=avatar,ou=groups"

    /// (attribute description, batch column), in the order given; columns canonical.
    public let pairs: [(attribute: String, column: String)]

    /// Reads `ATTR=COLUMN,…`; a column may be any name the CSV header takes (`Full name`).
    public init(_ text: String) throws(BatchError) {
        var pairs: [(attribute: String, column: String)] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let attribute = parts[0].description.trimmingWhitespace()
            guard parts.count == 2, !attribute.isEmpty else {
                throw .badHeader("--map: '\(TerminalText.escaped(String(item)))' is not ATTRIBUTE=COLUMN (e.g. uid=username,cn=fullname)")
            }
            let name = parts[1].description.trimmingWhitespace()
            guard LDIFReader.isAttributeDescription(attribute) else {
                throw .badHeader("--map: '\(TerminalText.escaped(attribute))' is not an LDAP attribute name (e.g. uid, cn, jpegPhoto, cn;lang-en)")
            }
            guard let column = BatchColumns.canonical(name) else {
                let near = Suggestion.closest(to: BatchColumns.comparable(name), among: BatchColumns.known.map(BatchColumns.comparable))
                    .flatMap { key in BatchColumns.known.first { BatchColumns.comparable($0) == key } }
                throw .badHeader("--map: '\(TerminalText.escaped(name))' is not a batch column"
                    + (near.map { " (did you mean \($0)?)" } ?? "") + "; columns: " + BatchColumns.known.joined(separator: ", "))
            }
            guard !pairs.contains(where: { $0.attribute.lowercased() == attribute.lowercased() }) else {
                throw .badHeader("--map: the attribute '\(attribute)' is mapped twice")
            }
            pairs.append((attribute, column))
        }
        self.pairs = pairs
    }

    public static func == (a: DirectoryMap, b: DirectoryMap) -> Bool { a.description == b.description }

    /// The canonical `ATTR=column,…` text (part of a batch's identity).
    public var description: String { pairs.map { "\($0.attribute)=\($0.column)" }.joined(separator: ",") }

    /// The columns, each once, in the order the map first names them.
    var columns: [String] {
        var seen: Set<String> = []
        return pairs.map(\.column).filter { seen.insert($0).inserted }
    }

    /// The attributes that fill a password column (`password`, `new_password`).
    public var passwordAttributes: [String] {
        pairs.filter { $0.column == "password" || $0.column == "new_password" }.map(\.attribute)
    }

    /// A warning when an attribute sets passwords: many directories let their users edit some of
    /// their own attributes (description, displayName, often mail), and whoever can edit it
    /// chooses the account's initial password.
    var passwordWarning: String? {
        let attributes = passwordAttributes
        guard !attributes.isEmpty else { return nil }
        return "warning: --map takes passwords from " + attributes.joined(separator: ", ") + ": if the directory lets its "
            + "users edit that attribute, whoever can edit it chooses the account's password (--generate-passwords makes them instead)"
    }

    /// Refuses a map that takes passwords from an attribute together with `--generate-passwords`
    /// asked for by the user: the two would disagree about where the password comes from, and
    /// the report would hold none.
    public func check(generatePasswords: Bool) throws(BatchError) {
        guard generatePasswords, let attribute = passwordAttributes.first else { return }
        throw .badHeader("--map \(attribute)=password and --generate-passwords cannot be used together: "
                         + "take the passwords from the directory or generate them, not both")
    }

    /// What to tell about the map and `entries`: an attribute that sets passwords, and each
    /// column none of whose attributes any entry has (a misspelt attribute would otherwise leave
    /// it empty without a word).
    func notes(_ entries: [LDIFEntry]) -> [String] {
        guard !entries.isEmpty else { return passwordWarning.map { [$0] } ?? [] }
        return (passwordWarning.map { [$0] } ?? []) + columns.compactMap { column in
            let attributes = pairs.filter { $0.column == column }.map(\.attribute)
            guard !entries.contains(where: { entry in attributes.contains { !entry.values($0).isEmpty } }) else { return nil }
            return "--map: no entry has " + attributes.joined(separator: " or ") + ", so the \(column) column is empty throughout"
        }
    }

    /// The entries as the table a CSV with these columns would give: one row per entry, on its
    /// `dn:` line; the header is on line 0, since no line of the file holds it. A list column
    /// (groups, contacts) takes every value, joined as `SemicolonList` escapes them; the avatar
    /// column takes the first value as a `data:` URI of its bytes; the others the first value,
    /// which must be UTF-8 text.
    func table(_ entries: [LDIFEntry]) throws(BatchError) -> CSVTable {
        let columns = self.columns
        var rows: [CSVRecord] = []
        rows.reserveCapacity(entries.count)
        for entry in entries {
            var fields: [String] = []
            fields.reserveCapacity(columns.count)
            for column in columns {
                let found = pairs.lazy.filter { $0.column == column }
                    .map { (attribute: $0.attribute, values: entry.values($0.attribute)) }
                    .first { !$0.values.isEmpty }
                guard let found else { fields.append(""); continue }
                if column == "avatar" {
                    fields.append(found.values[0].isEmpty ? "" : DataURI.make(found.values[0]))
                    continue
                }
                var texts: [String] = []
                for value in BatchColumns.rosterColumns.contains(column) ? found.values : [found.values[0]] {
                    guard let text = String(validating: value, as: UTF8.self) else {
                        throw .invalidCSV("line \(entry.line): \(found.attribute) (mapped to \(column)) is not UTF-8 text")
                    }
                    texts.append(text)
                }
                fields.append(BatchColumns.rosterColumns.contains(column) ? texts.map(SemicolonList.escape).joined(separator: ";") : texts[0])
            }
            rows.append(CSVRecord(line: entry.line, fields: fields))
        }
        return CSVTable(header: CSVRecord(line: 0, fields: columns), rows: rows, delimiter: ",")
    }
}

/// An image given inline in the avatar column: `data:[TYPE];base64,BYTES` (RFC 2397), as the
/// LDIF reader writes a `jpegPhoto`, and as a CSV may give one.
enum DataURI {
    static func make(_ bytes: [UInt8]) -> String { "data:application/octet-stream;base64," + Base64.encode(bytes) }

    /// The bytes of a base-64 `data:` URI; nil when `text` is not one.
    static func bytes(_ text: String) -> [UInt8]? {
        guard text.lowercased().hasPrefix("data:"), let comma = text.firstIndex(of: ",") else { return nil }
        let parameters = text[text.index(text.startIndex, offsetBy: 5)..<comma].lowercased()
        guard parameters.split(separator: ";").last == "base64" else { return nil }
        return Base64.decode(text[text.index(after: comma)...], ignoringWhitespace: true)
    }
}
