import CryptoPrimitives
import TextFormats
import XMPPStorage

/// The row's own columns that the report carries for handing passwords out: `name` (the row's
/// fullname, or its nickname) and `groups` (its groups column, `;`-separated as in the CSV), each
/// only when the CSV has such a column, so a file per class or a printed slip needs no join.
struct ReportPeople: Sendable {
    /// The CSV has a fullname or nickname column.
    var hasName = false
    /// The CSV has a groups column.
    var hasGroups = false
    /// By line.
    var names: [Int: String] = [:]
    var groups: [Int: [String]] = [:]

    /// No columns: reports of a CSV without names or groups look as they always did.
    init() {}

    /// From the checked rows of a CSV with `columns`.
    init(rows: [CheckedRow], columns: BatchColumns) {
        hasName = columns.presentProfileColumns.contains { $0 == "fullname" || $0 == "nickname" }
        hasGroups = columns.presentRosterColumns.contains("groups")
        for case .valid(let row) in rows {
            if let name = row.profile.fullname ?? row.profile.nickname { names[row.line] = name }
            if !row.roster.groups.isEmpty { groups[row.line] = row.roster.groups }
        }
    }

    /// The header's extra columns.
    var header: [String] { (hasName ? ["name"] : []) + (hasGroups ? ["groups"] : []) }

    /// The extra fields of the row on `line`.
    func fields(line: Int) -> [String] {
        (hasName ? [names[line] ?? ""] : [])
            + (hasGroups ? [(groups[line] ?? []).map(SemicolonList.escape).joined(separator: ";")] : [])
    }
}

/// `--report-by-group DIR`: the report split into one file per group of the groups column,
/// `DIR/group-NAME.csv` (a row in several groups is in each), and `DIR/ungrouped.csv` for rows
/// in none; each has the report's columns, mode 0600, written atomically, in a directory only the
/// user can enter (made 0700 when missing), in the input CSV's dialect (`CSVDialect`), so that a
/// spreadsheet opens them as it opened the export.
enum GroupReports {
    /// The file name of `group`'s report: `group-` and the name as it is, except that `%`, `/`,
    /// control and other characters a file name or a shell would trip on are percent-encoded
    /// (so no two groups share a file, and none can leave DIR).
    static func fileName(group: String) -> String {
        // The prefix keeps every name from starting with "." or "-".
        var out = "group-"
        for scalar in group.unicodeScalars {
            let p = scalar.properties
            if (p.isAlphabetic || p.numericType != nil || " _()+,.-".unicodeScalars.contains(scalar)) && scalar.value >= 0x20 {
                out.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 { out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2) }
            }
        }
        // Long names keep within NAME_MAX (255 bytes) with room for ".csv".
        if out.utf8.count > 240 {
            var cut = ""
            for ch in out where cut.utf8.count + String(ch).utf8.count <= 220 { cut.append(ch) }
            out = cut + "~" + String(Hex.encode(Crypto.hash(.sha256, Array(group.utf8))).prefix(12))
        }
        return out + ".csv"
    }

    /// Writes the split of `entries` (the report's rows) under `directory`.
    static func write(_ entries: [JournalEntry], people: ReportPeople, includePasswords: Bool, invites: Bool,
                      stamps: HandoutStamps = HandoutStamps(), sync: SyncReportColumns = SyncReportColumns(),
                      dialect: CSVDialect = .rfc4180,
                      to directory: String) throws(StorageError) {
        // A directory the user named: made 0700 when missing, and used only when it is the
        // user's own, not a link, and nobody else can write in it or above it (the files are 0600
        // either way).
        try SecureFile.makeDirectory(directory, tighten: false)
        try FileTrust.requirePrivateDirectory(directory)
        var members: [String: [JournalEntry]] = [:]
        var ungrouped: [JournalEntry] = []
        for entry in entries {
            let groups = people.groups[entry.line] ?? []
            if groups.isEmpty { ungrouped.append(entry) }
            for group in groups { members[group, default: []].append(entry) }
        }
        for (group, rows) in members.sorted(by: { $0.key < $1.key }) {
            try SecureFile.writeSecret(dialect.rewrite(BatchReport.csv(rows, includePasswords: includePasswords, invites: invites,
                                                                       people: people, stamps: stamps, sync: sync)),
                                       to: directory + "/" + fileName(group: group))
        }
        if !ungrouped.isEmpty {
            try SecureFile.writeSecret(dialect.rewrite(BatchReport.csv(ungrouped, includePasswords: includePasswords, invites: invites,
                                                                       people: people, stamps: stamps, sync: sync)),
                                       to: directory + "/ungrouped.csv")
        }
        try BatchReport.syncDirectory(of: directory + "/ungrouped.csv")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
