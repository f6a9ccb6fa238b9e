import XMPPStorage

/// The `--report FILE` CSV, rebuilt from the journal so it is complete whatever happened to the
/// process: `line,jid,status,error,profile` plus `password` when this batch generated passwords.
/// Written atomically with mode 0600 (it may hold passwords).
enum BatchReport {
    /// The report's bytes for `entries` (one row each, by line).
    static func csv(_ entries: [JournalEntry], includePasswords: Bool) -> [UInt8] {
        var text = "line,jid,status,error,profile" + (includePasswords ? ",password" : "") + "\r\n"
        for e in entries.sorted(by: { $0.line < $1.line }) {
            var fields = [String(e.line), e.jid, e.status.rawValue, e.error ?? "", profileText(e.profile)]
            if includePasswords { fields.append(e.generatedPassword ?? "") }
            text += fields.map(quote).joined(separator: ",") + "\r\n"
        }
        return Array(text.utf8)
    }

    /// `applied`, `pending: nickname avatar`, or empty.
    static func profileText(_ journalText: String?) -> String {
        switch ProfileState(journalText: journalText) {
        case nil: return ""
        case .applied: return "applied"
        case .pending(let columns): return "pending: " + columns.joined(separator: " ")
        }
    }

    /// RFC 4180 quoting: fields with a comma, quote or line break are quoted, quotes doubled.
    /// Nothing else changes: the report is data for scripts (and `--resume`), not a spreadsheet.
    static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingAll("\"", with: "\"\"") + "\""
    }
}
