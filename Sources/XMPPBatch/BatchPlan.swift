import XMPPStanzas
import XMPPStorage

/// The work of this run: validated rows joined with the journal. A new run records every row
/// first (without passwords: a generated one is made only when its row is sent); a resumed run
/// takes the rows that have no outcome yet, those whose failure was transient, the `conflict`
/// follow-ups a crash interrupted, and the created rows whose profile is still to set.
public struct BatchPlan: Sendable {
    /// Rows to register (or delete, or change), with passwords resolved.
    var work: [WorkItem] = []
    /// Rows that need a log-in follow-up, and which.
    var followUps: [(item: WorkItem, task: LoginPhase.Task)] = []
    /// Rows that already have an outcome from an earlier run.
    public internal(set) var doneEarlier = 0
    /// The rosters the groups and contacts columns ask for.
    var roster = RosterPlan(rows: [])
    /// The valid rows that take part in a roster, by line.
    var rosterRows: [Int: BatchRow] = [:]
    /// Contacts to take out of a row's roster (by line): `sync`'s items the file no longer asks for.
    var rosterRemovals: [Int: [JID]] = [:]
    /// With `sync`, the accounts whose rosters may be touched besides those this run creates: the
    /// managed ones (nil: every account whose password the batch knows).
    var rosterAccounts: Set<JID>?
    /// Rows whose roster is emptied first (by line): `sync`'s accounts created again, whose
    /// server may have kept the deleted account's roster.
    var rosterResets: Set<Int> = []

    /// Rows this run works on: registrations (or changes) and log-in follow-ups.
    public var toDo: Int { work.count + followUps.count }

    /// The journal rows of a new run: every row of the shard, invalid ones with their reason.
    static func entries(for checked: [CheckedRow], mode: BatchMode = .create) -> [JournalEntry] {
        let roster = mode == .create ? RosterPlan(rows: checked) : RosterPlan(rows: [])
        return checked.map { row in
            switch row {
            case .invalid(let bad):
                return JournalEntry(line: bad.line, jid: bad.jidText, status: .invalid, error: bad.reason)
            case .valid(let good):
                return JournalEntry(line: good.line, jid: good.jid.description, status: .pending,
                                    roster: roster.contacts[good.line] == nil ? nil : RosterPhase.State.pending.rawValue)
            }
        }
    }

    /// Joins the valid rows with their journal entries.
    init(checked: [CheckedRow], entries: [JournalEntry], mode: BatchMode) throws(BatchError) {
        // Each line's place in `entries`, not a second copy of every entry (~380 bytes each).
        var byLine: [Int: Int] = [:]
        byLine.reserveCapacity(entries.count)
        for (i, e) in entries.enumerated() { byLine[e.line] = i }
        if mode == .create { roster = RosterPlan(rows: checked) }
        for case .valid(let row) in checked {
            if roster.contacts[row.line] != nil { rosterRows[row.line] = row }
            guard let index = byLine[row.line] else {
                throw .journalLacksLine(row.line)
            }
            let entry = entries[index]
            let fromCSV = mode == .passwd ? row.newPassword : row.password
            let source: RowPasswordOrigin = fromCSV != nil ? .csv : entry.passwordKept ? .report : .generated
            var item = WorkItem(row: row, password: row.password, newPassword: row.newPassword, source: source,
                                uncertain: entry.status == .sent || entry.uncertain)
            if fromCSV == nil {
                if mode == .passwd { item.newPassword = entry.generatedPassword } else { item.password = entry.generatedPassword }
            }
            switch entry.status {
            case .pending, .sent: work.append(item)
            case .conflict: followUps.append((item, BatchPlan.followUpTask(item)))
            case .registered: followUps.append((item, .profile))
            case .failed where entry.retryable: work.append(item)
            default: doneEarlier += 1
            }
        }
    }

    /// The note of a row created with the password an earlier report kept: the account existed
    /// when that report was written, so it was deleted since, and is back with its old password
    /// (`xmpp-register sync` knows the difference and makes a new one).
    static func recreatedNote(_ item: WorkItem) -> String? {
        guard item.source == .report, !item.uncertain else { return nil }
        return "created again with the password the report kept: the account was deleted since that report was written"
    }

    /// A `conflict` row whose earlier request went unanswered is checked; others are updated.
    static func followUpTask(_ item: WorkItem) -> LoginPhase.Task {
        item.uncertain ? .verifyCreated : .update
    }
}
