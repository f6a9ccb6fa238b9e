import XMPPStanzas

/// The rosters a batch's `groups` and `contacts` columns ask for, between the batch's own
/// accounts. A row's `groups` are the groups it belongs to: whoever has it as a contact files it
/// under them (as a shared roster shows a group's members under the group's name). A row's
/// `contacts` name other rows by JID, or groups by name (every row of that group). Every pair is
/// mutual: when A names B, B gets A too, and `RosterPhase` makes both subscriptions and approves
/// them on both sides. "Every teacher sees every teacher" is `groups=Teachers,contacts=Teachers`
/// on each teacher's row.
struct RosterPlan: Sendable, Equatable {
    /// Each row's contacts (by line), each as the roster item it gets: the contact's name
    /// (fullname, else nickname) and groups. Only rows with a contact at all are here.
    private(set) var contacts: [Int: [RosterItem]] = [:]
    /// Rows whose `contacts` cell names something that is neither a row nor a group (by line).
    private(set) var problems: [Int: String] = [:]

    /// True when no row has a contact.
    var isEmpty: Bool { contacts.isEmpty }

    /// Resolves the valid rows' contacts; invalid rows take no part.
    init(rows checked: [CheckedRow]) {
        // Without a contact there is nothing to resolve, and no copy of the rows is made.
        guard checked.contains(where: { if case .valid(let row) = $0 { !row.roster.contacts.isEmpty } else { false } }) else { return }
        var rows: [BatchRow] = []
        for case .valid(let row) in checked { rows.append(row) }
        var byJID: [JID: Int] = [:]
        var members: [String: [Int]] = [:]
        for (i, row) in rows.enumerated() {
            byJID[row.jid] = i
            for group in row.roster.groups { members[group, default: []].append(i) }
        }
        // Pairs as index sets, both directions, in a stable order.
        var links = [[Int]](repeating: [], count: rows.count)
        var linked = [Set<Int>](repeating: [], count: rows.count)
        func link(_ a: Int, _ b: Int) {
            guard a != b else { return }
            if linked[a].insert(b).inserted { links[a].append(b) }
            if linked[b].insert(a).inserted { links[b].append(a) }
        }
        for (a, row) in rows.enumerated() {
            for entry in row.roster.contacts {
                if entry.unicodeScalars.contains("@") {
                    guard let jid = try? JID(entry), let b = byJID[jid.bare] else {
                        problems[row.line] = "contact '\(JID.printable(entry))' is not an account of this batch "
                            + "(both sides of a pair log in to approve it)"
                        break
                    }
                    link(a, b)
                } else if let group = members[entry] {
                    for b in group { link(a, b) }
                } else {
                    problems[row.line] = "contact '\(JID.printable(entry))' is neither a JID nor a group of the groups column"
                    break
                }
            }
        }
        for (a, row) in rows.enumerated() where !links[a].isEmpty && problems[row.line] == nil {
            let items = links[a].filter { problems[rows[$0].line] == nil }.map { b in
                let other = rows[b]
                return RosterItem(jid: other.jid, name: other.profile.fullname ?? other.profile.nickname, groups: other.roster.groups)
            }
            if !items.isEmpty { contacts[row.line] = items }
        }
    }
}
