import TextFormats
import XMPPStorage

/// The `--report FILE` CSV, rebuilt from the journal so it is complete whatever happened to the
/// process: `line,jid,status,error,profile` plus `password` when this batch generated passwords.
/// Written atomically with mode 0600 (it may hold passwords).
enum BatchReport {
    /// The report's bytes for `entries` (one row each, by line).
    static func csv(_ entries: [JournalEntry], includePasswords: Bool) -> [UInt8] {
        var text = CSVWriter.record(["line", "jid", "status", "error", "profile"] + (includePasswords ? ["password"] : []))
        for e in entries.sorted(by: { $0.line < $1.line }) {
            var fields = [String(e.line), e.jid, e.status.rawValue, e.error ?? "", profileText(e.profile)]
            if includePasswords { fields.append(e.generatedPassword ?? "") }
            text += CSVWriter.record(fields)
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
}
