import TextFormats
import XMPPStorage

/// A password set outside the batch (the administrator's `passwd --admin`) carried into the
/// batch's report, and into the journal next to it where that still holds the row's password:
/// the next run of the batch logs in as the account with the password that works.
public enum ReportPassword {
    /// Checks, before anything changes on the server, that `report` is the user's own batch
    /// report with a password column and a row for `jid`.
    public static func check(report: String, jid: String) throws(BatchError) {
        _ = try locate(report: report, jid: jid)
    }

    /// Puts `password` into `jid`'s row of `report` (rewritten atomically, mode 0600), and into
    /// the row's journal entry when the journal (`report`.journal) still holds one. The row's
    /// `handed_out` is emptied: the slip printed before shows the old password.
    public static func replace(report: String, jid: String, password: String) throws {
        var (records, row, column) = try locate(report: report, jid: jid)
        records[row].fields[column] = password
        if let stamp = records[0].fields.firstIndex(of: HandoutStamps.column), stamp < records[row].fields.count {
            records[row].fields[stamp] = ""
        }
        var text = ""
        for record in records { text += BatchReport.record(record.fields) }
        try SecureFile.writeSecret(Array(text.utf8), to: report)
        try BatchReport.syncDirectory(of: report)
        try BatchJournal.replacePassword(at: report + ".journal", jid: jid, password: password)
    }

    /// The report's records (fields restored), the row of `jid` and the password column.
    private static func locate(report: String, jid: String) throws(BatchError) -> (records: [CSVRecord], row: Int, column: Int) {
        guard let records = try BatchReport.restoredRecords(at: report) else {
            throw .unreadableReport(path: report, reason: "no such file")
        }
        guard let header = records.first?.fields, let jidColumn = header.firstIndex(of: "jid"),
              header.contains("status") else {
            throw .notAReport(path: report, reason: "no jid and status columns")
        }
        guard let passwordColumn = header.firstIndex(of: "password") else {
            throw .reportHasNoPassword(report: report, jid: jid, reason: "it has no password column: the batch's CSV gives the passwords, so change it there")
        }
        guard let row = records.indices.dropFirst().first(where: { records[$0].fields.count > max(jidColumn, passwordColumn)
            && records[$0].fields[jidColumn] == jid }) else {
            throw .reportHasNoPassword(report: report, jid: jid, reason: "it has no row for \(jid)")
        }
        return (records, row, passwordColumn)
    }
}
