import XMPPStorage

/// The work of this run: validated rows joined with the journal. A new run records every row
/// first (generating passwords once); a resumed run takes the rows that have no outcome yet,
/// those whose failure was transient, and the `conflict` follow-ups a crash interrupted.
struct BatchPlan {
    /// Rows to register (or delete, or change), with passwords resolved.
    var work: [WorkItem] = []
    /// Rows that met `conflict` and still need their log-in follow-up.
    var followUps: [WorkItem] = []
    /// Rows that already have an outcome from an earlier run.
    var doneEarlier = 0

    /// The journal rows of a new run: every row of the shard, invalid ones with their reason.
    static func entries(for checked: [CheckedRow], mode: BatchMode, generate: Bool) -> [JournalEntry] {
        checked.map { row in
            switch row {
            case .invalid(let bad):
                return JournalEntry(line: bad.line, jid: bad.jidText, status: .invalid, error: bad.reason)
            case .valid(let good):
                let needsPassword = mode == .passwd ? good.newPassword == nil : good.password == nil
                return JournalEntry(line: good.line, jid: good.jid.description, status: .pending,
                                    generatedPassword: generate && needsPassword ? BatchInput.generatePassword() : nil)
            }
        }
    }

    /// Joins the valid rows with their journal entries.
    init(checked: [CheckedRow], entries: [JournalEntry], mode: BatchMode) throws(ToolFailure) {
        var byLine: [Int: JournalEntry] = [:]
        for e in entries { byLine[e.line] = e }
        for case .valid(let row) in checked {
            guard let entry = byLine[row.line] else {
                throw ToolFailure(.failed, "the journal has no record of line \(row.line); remove it and start over")
            }
            let generated = entry.generatedPassword
            let password = mode == .passwd ? row.password : (row.password ?? generated)
            let newPassword = mode == .passwd ? (row.newPassword ?? generated) : nil
            guard let password, mode != .passwd || newPassword != nil else {
                throw ToolFailure(.failed, "the journal lost the generated password of line \(row.line); remove it and start over")
            }
            let item = WorkItem(row: row, password: password, newPassword: newPassword,
                                uncertain: entry.status == .sent || entry.uncertain)
            switch entry.status {
            case .pending, .sent: work.append(item)
            case .conflict: followUps.append(item)
            case .failed where entry.retryable: work.append(item)
            default: doneEarlier += 1
            }
        }
    }
}
