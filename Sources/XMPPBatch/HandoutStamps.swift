import TextFormats
import XMPPStorage

/// When each account's slip was printed, as an earlier report records it in its `handed_out`
/// column, carried into the report a batch or sync run writes over it: a row keeps its stamp
/// as long as its secret (password, or invite URI) is the one that slip showed, so the next
/// handout prints only new accounts and those whose password or invite changed.
struct HandoutStamps: Sendable {
    /// The report's column, after all the others.
    static let column = "handed_out"

    /// By JID: the secret the slip showed and when it was printed.
    private var stamps: [String: (secret: String, stamp: String)] = [:]
    /// The earlier report had the column: the new one keeps it.
    private(set) var present = false

    init() {}

    /// The stamps of the report at `path`; none when it has no such column or cannot be read
    /// (`BatchReport.knownPasswords` has already refused a report that is not the user's).
    init(report path: String) {
        guard let records = try? BatchReport.restoredRecords(at: path), let header = records.first?.fields,
              let stampColumn = header.firstIndex(of: Self.column), let jidColumn = header.firstIndex(of: "jid") else { return }
        present = true
        let secretColumns = ["invite", "password"].compactMap { header.firstIndex(of: $0) }
        for record in records.dropFirst() {
            let fields = record.fields
            guard fields.count > max(jidColumn, stampColumn), !fields[stampColumn].isEmpty else { continue }
            guard let secret = secretColumns.lazy.compactMap({ $0 < fields.count && !fields[$0].isEmpty ? fields[$0] : nil }).first else { continue }
            stamps[fields[jidColumn]] = (secret, fields[stampColumn])
        }
    }

    /// The stamp of `jid`'s slip if it showed `secret` (compared as the report writes it), else empty.
    func stamp(jid: String, secret: String?) -> String {
        guard let secret, !secret.isEmpty, let known = stamps[TerminalText.escaped(jid)],
              known.secret == TerminalText.escaped(secret) else { return "" }
        return known.stamp
    }
}
