import TextFormats
import XMLTree
import XMPPServices
import XMPPStanzas

/// `xmpp-roster add|remove|rename|group`: roster sets on the synced roster. Each waits for the
/// server's pushes behind a ping, so the cache follows the change with the server's version.
struct EditCommands {
    let invocation: Invocation
    var edit: ContactEdit { ContactEdit(context: invocation.context) }
    private var contactText: String { invocation.command.argument("JID") ?? "" }
    private func open() throws -> (RosterSession, JID) { try edit.open(contactText) }
    private func update(_ change: (inout RosterItem) -> String) throws { try edit.update(contactText, change) }
    private func report(_ item: RosterItem, action: String, subscribed: Bool, text: String) {
        edit.report(item, action: action, subscribed: subscribed, text: text)
    }

    func add() throws {
        let (session, jid) = try open()
        defer { session.close() }
        let name = invocation.command.string("name").map { $0.isEmpty ? nil : $0 }
        let groups = invocation.command.strings("group")
        try ContactEdit.checkGroups(groups)
        let subscribe = !invocation.command.flag("no-subscribe")
        if let existing = session.roster[jid] {
            try addAgain(existing, name: name, groups: groups, subscribe: subscribe, session: session)
            return
        }
        let item = RosterItem(jid: jid, name: name ?? nil, groups: groups)
        try RosterService.set(item, on: session.connection)
        _ = try session.barrier(sending: subscribe ? [PresenceService.subscription(.subscribe, to: jid).element] : [])
        report(session.roster[jid] ?? item, action: "added", subscribed: subscribe,
               text: "Added \(jid)" + (subscribe ? " and asked to see their presence." : "."))
    }

    /// `add` of a contact already there: the name and groups given replace the old ones (the
    /// others stay), and when we do not see their presence and no request of ours is pending
    /// (they removed us, denied us, or were added with --no-subscribe), we ask again.
    private func addAgain(_ existing: RosterItem, name: String??, groups: [String], subscribe: Bool,
                          session: RosterSession) throws {
        let jid = existing.jid
        var changed = existing
        if let name { changed.name = name }
        if !groups.isEmpty { changed.groups = RosterItem(jid: jid, groups: groups).groups }
        let updated = changed != existing
        let askAgain = subscribe && !existing.subscription.receivesPresence && !existing.ask
        if updated { try RosterService.set(changed, on: session.connection) }
        if updated || askAgain {
            _ = try session.barrier(sending: askAgain ? [PresenceService.subscription(.subscribe, to: jid).element] : [])
        }
        let done = [updated ? "updated its name and groups" : nil, askAgain ? "asked again to see their presence" : nil]
            .compactMap { $0 }.joined(separator: " and ")
        report(session.roster[jid] ?? changed, action: updated ? "updated" : "unchanged", subscribed: askAgain,
               text: "\(jid) is already in the roster; " + (done.isEmpty ? "nothing to change." : done + "."))
    }

    func remove() throws {
        let (session, jid) = try open()
        defer { session.close() }
        guard let item = session.roster[jid] else { throw ToolFailure(.notFound, "\(jid) is not in the roster") }
        try RosterService.remove(jid, on: session.connection)
        _ = try session.barrier()
        report(item, action: "removed", subscribed: false, text: "Removed \(jid).")
    }

    func rename() throws {
        let newName = invocation.command.argument("NAME") ?? ""
        try update { item in
            item.name = newName.isEmpty ? nil : newName
            return newName.isEmpty ? "Removed the name of \(item.jid)." : "Renamed \(item.jid) to \(newName)."
        }
    }

    func group() throws {
        let groups = invocation.command.argumentList("GROUP")
        try ContactEdit.checkGroups(groups)
        try update { item in
            item.groups = RosterItem(jid: item.jid, groups: groups).groups
            return item.groups.isEmpty ? "\(item.jid) is in no group now."
                : "\(item.jid) is in \(item.groups.joined(separator: ", ")) now."
        }
    }
}
