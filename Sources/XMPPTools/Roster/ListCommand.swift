import TextFormats
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// `xmpp-roster list`: contacts with subscription and presence, filtered; from the server
/// (versioned against the cache) or, with --cached, from the cache alone.
struct ListCommand {
    let invocation: Invocation

    struct Filters {
        var online = false
        var groups: [String] = []
        var subscription: String?

        func accepts(_ item: RosterItem, _ presence: ContactPresence) -> Bool {
            if online && (presence.state == "offline" || presence.state == "unknown") { return false }
            if !groups.isEmpty && !item.groups.contains(where: groups.contains) { return false }
            if let subscription {
                if subscription == "ask" { return item.ask }
                return item.subscription.rawValue == subscription
            }
            return true
        }
    }

    func run() throws {
        let command = invocation.command
        let filters = Filters(online: command.flag("online"), groups: command.strings("group"),
                              subscription: command.string("subscription"))
        let noPresence = command.flag("no-presence")
        if command.flag("online") && (command.flag("cached") || noPresence) {
            throw ToolFailure(.usage, "--online needs presence: it cannot be combined with --cached or --no-presence")
        }
        let items: [RosterItem]
        var book: PresenceBook?
        if command.flag("cached") {
            items = try cachedItems()
        } else {
            let session = try RosterSession.open(invocation.context)
            defer { session.close() }
            try session.sync()
            if !noPresence {
                var gathered = PresenceBook(account: session.account)
                let subscribed = Set(session.roster.values.filter { $0.subscription.receivesPresence }.map(\.jid))
                for case .presence(let p) in try session.gatherPresence(expecting: subscribed) { gathered.add(p) }
                book = gathered
            }
            items = session.items
        }
        let rows = items.map { ($0, book?.presence(of: $0.jid) ?? .unknown) }.filter { filters.accepts($0.0, $0.1) }
        print(rows)
    }

    private func cachedItems() throws -> [RosterItem] {
        let env = invocation.environment
        let account = try invocation.context.accountJID()
        guard let cache = RosterSession.openCache(env), let roster = try cache.load(account: account) else {
            throw ToolFailure(.notFound, "no cached roster for \(account): run 'xmpp-roster list' once while online")
        }
        return roster.items
    }

    private func print(_ rows: [(RosterItem, ContactPresence)]) {
        if invocation.common.json {
            Output.line(JSONValue.array(rows.map { RosterOutput.json($0.0, presence: $0.1) }).pretty)
            return
        }
        RosterOutput.table(
            header: ["JID", "NAME", "GROUPS", "SUBSCRIPTION", "PRESENCE", "STATUS"],
            rows: rows.map { item, presence in
                [item.jid.description, item.name ?? "", item.groups.joined(separator: ","),
                 RosterOutput.subscriptionText(item), presence.state, presence.status ?? ""]
            })
    }
}
