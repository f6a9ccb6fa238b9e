import TextFormats
import XMLTree
import XMPPServices
import XMPPStanzas

/// `xmpp-roster add|remove|rename|group`: roster sets on the synced roster. Each waits for the
/// server's pushes behind a ping, so the cache follows the change with the server's version.
struct EditCommands {
    let invocation: Invocation

    func add() throws {
        let (session, jid) = try open()
        defer { session.close() }
        let name = invocation.command.string("name").map { $0.isEmpty ? nil : $0 }
        let groups = invocation.command.strings("group")
        try checkGroups(groups)
        if let existing = session.roster[jid] {
            var changed = existing
            if let name { changed.name = name }
            if !groups.isEmpty { changed.groups = RosterItem(jid: jid, groups: groups).groups }
            let action = changed == existing ? "unchanged" : "updated"
            if action == "updated" {
                try RosterService.set(changed, on: session.connection)
                _ = try session.barrier()
            }
            report(session.roster[jid] ?? changed, action: action, subscribed: false,
                   text: "\(jid) is already in the roster; " + (action == "updated" ? "updated its name and groups." : "nothing to change."))
            return
        }
        let item = RosterItem(jid: jid, name: name ?? nil, groups: groups)
        try RosterService.set(item, on: session.connection)
        let subscribe = !invocation.command.flag("no-subscribe")
        _ = try session.barrier(sending: subscribe ? [PresenceService.subscription(.subscribe, to: jid).element] : [])
        report(session.roster[jid] ?? item, action: "added", subscribed: subscribe,
               text: "Added \(jid)" + (subscribe ? " and asked to see their presence." : "."))
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
        try checkGroups(groups)
        try update { item in
            item.groups = RosterItem(jid: item.jid, groups: groups).groups
            return item.groups.isEmpty ? "\(item.jid) is in no group now."
                : "\(item.jid) is in \(item.groups.joined(separator: ", ")) now."
        }
    }

    /// Changes an existing contact (exit 4 when it is not in the roster) with one roster set.
    private func update(_ change: (inout RosterItem) -> String) throws {
        let (session, jid) = try open()
        defer { session.close() }
        guard var item = session.roster[jid] else { throw ToolFailure(.notFound, "\(jid) is not in the roster") }
        let text = change(&item)
        try RosterService.set(item, on: session.connection)
        _ = try session.barrier()
        report(session.roster[jid] ?? item, action: "updated", subscribed: false, text: text)
    }

    /// Resolves the contact before touching the network, then connects and syncs.
    private func open() throws -> (RosterSession, JID) {
        let account = try invocation.context.accountJID()
        let jid = try ContactAddress.resolve(invocation.command.argument("JID") ?? "", account: account)
        let session = try RosterSession.open(invocation.context)
        do { try session.sync() } catch { session.close(); throw error }
        return (session, jid)
    }

    private func checkGroups(_ groups: [String]) throws(ToolFailure) {
        if let bad = groups.first(where: { !RosterFile.isValidText($0) }) {
            throw ToolFailure(.badInput, "invalid group name '\(bad)': control characters cannot be sent in XML")
        }
    }

    private func report(_ item: RosterItem, action: String, subscribed: Bool, text: String) {
        if invocation.common.json {
            Output.line(JSONValue.object([
                ("jid", .string(item.jid.description)), ("action", .string(action)),
                ("name", .optional(item.name)), ("groups", .array(item.groups.map(JSONValue.string))),
                ("subscription", .string(item.subscription.rawValue)), ("ask", .bool(item.ask)),
                ("subscription_requested", .bool(subscribed)),
            ]).pretty)
        } else if !invocation.common.quiet {
            Output.line(text)
        }
    }
}
