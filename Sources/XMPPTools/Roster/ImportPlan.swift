import XMPPStanzas

/// What `xmpp-roster import` changes: contacts to add (each with whether to ask for their
/// presence), contacts whose name or groups change, and how many stay as they are.
struct ImportPlan {
    var add: [(RosterItem, subscribe: Bool)] = []
    var update: [(new: RosterItem, old: RosterItem)] = []
    var unchanged = 0
    /// The account itself, where the file lists it.
    var skipped: [String] = []

    /// Resolves every JID first, so a bad file changes nothing; the account itself is skipped.
    static func resolve(_ entries: [RosterFile.Entry], account: JID) throws -> (entries: [(JID, RosterFile.Entry)], skipped: [String]) {
        var out: [(JID, RosterFile.Entry)] = []
        var skipped: [String] = []
        var seen = Set<JID>()
        for (i, entry) in entries.enumerated() {
            if let own = try? JID(entry.jid.trimmingWhitespace()), own.bare == account.bare {
                skipped.append(own.bare.description)
                continue
            }
            let jid: JID
            do { jid = try ContactAddress.resolve(entry.jid, account: account) } catch {
                throw ToolFailure(.badInput, "contact #\(i + 1) of the roster file: \(error.message)")
            }
            let texts = (entry.groups ?? []) + [(entry.name ?? nil) ?? ""]
            guard texts.allSatisfy(RosterFile.isValidText) else {
                throw ToolFailure(.badInput, "contact #\(i + 1) of the roster file (\(jid)): control characters in a name or group")
            }
            guard seen.insert(jid).inserted else { continue }
            out.append((jid, entry))
        }
        return (out, skipped)
    }

    /// Compares the resolved entries with `roster`; `subscribeAllowed` false (--no-subscribe)
    /// asks nobody for their presence; every contact also goes into `extraGroups` (--group).
    init(_ entries: [(JID, RosterFile.Entry)], roster: [JID: RosterItem], skipped: [String], subscribeAllowed: Bool,
         extraGroups: [String] = []) {
        self.skipped = skipped
        for (jid, entry) in entries {
            guard let old = roster[jid] else {
                let item = RosterItem(jid: jid, name: entry.name ?? nil, groups: (entry.groups ?? []) + extraGroups)
                add.append((item, subscribeAllowed && entry.wantsSubscription))
                continue
            }
            var new = old
            if let name = entry.name { new.name = name }
            if entry.groups != nil || !extraGroups.isEmpty {
                new.groups = RosterItem(jid: jid, groups: (entry.groups ?? old.groups) + extraGroups).groups
            }
            if new.name != old.name || Set(new.groups) != Set(old.groups) {
                update.append((new, old))
            } else {
                unchanged += 1
            }
        }
    }
}
