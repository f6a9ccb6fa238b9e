import Arguments
import TextFormats
import XMPPServices
import XMPPStanzas
import XMPPStorage

extension RosterTool {
    /// `xmpp-roster list`: contacts with subscription and presence, filtered; from the server
    /// (versioned against the cache) or, with --cached, from the cache alone.
    struct List: ToolCommand {
        /// What --subscription selects: a subscription state, or ask (a request of ours is pending).
        enum SubscriptionState: String, CaseIterable, Sendable {
            case none, to, from, both, ask
        }

        static let online = Flag("online", help: "Only contacts that are available now.")
        static let group = Option<String>("group", value: "GROUP", help: "Only contacts in GROUP (repeat for any of several).",
                                          repeatable: true, completion: RosterCompletion.groups)
        static let subscription = Option<SubscriptionState>.choice(
            "subscription", value: "STATE", help: "Only contacts in this subscription state (ask: a request of yours is pending).")
        static let cached = Flag("cached", help: "Answer from the local cache without touching the network.")
        static let noPresence = Flag("no-presence", help: "Do not ask for contacts' presence.")

        static let spec = CommandSpec(
            "list", summary: "List contacts with subscription and presence.",
            discussion: ["Presence is online, chat, away, xa, dnd or offline (unknown with --cached or --no-presence). "
                         + "The subscription column shows none, to, from or both, with +ask while a request of yours is pending.",
                         "Presence is learnt without announcing the account: list sends no initial presence but a presence probe "
                         + "to each contact whose presence you may see (subscription to or both), so your contacts do not see you "
                         + "come online and go again. Prosody answers every probe before a ping that follows them; on ejabberd the "
                         + "contacts answer themselves, perhaps after the ping, and offline ones not at all, so list then waits until "
                         + "0.3 s pass without an answer (2 s at most). jabberd2 drops probes from clients: there list goes online "
                         + "for a moment with priority -1, and contacts see the account come and go."],
            options: [online, group, subscription, cached, noPresence] + PasswordSource.declarations,
            rules: [
                .exclusive(online.spec.long, cached.spec.long, because: "the cache holds no presence"),
                .exclusive(online.spec.long, noPresence.spec.long, because: "--online needs presence"),
            ],
            examples: [Example("xmpp-roster list --online --json | jq -r '.[].jid'", "Print who is online.")])

        /// Which contacts are shown.
        struct Filters {
            var online = false
            var groups: [String] = []
            var subscription: SubscriptionState?

            func accepts(_ item: RosterItem, _ presence: ContactPresence) -> Bool {
                if online && (!presence.state.isAvailable) { return false }
                if !groups.isEmpty && !item.groups.contains(where: groups.contains) { return false }
                if let subscription {
                    if subscription == .ask { return item.ask }
                    return item.subscription.rawValue == subscription.rawValue
                }
                return true
            }
        }

        let context: AccountContext
        let filters: Filters
        let fromCache: Bool
        let learnPresence: Bool

        init(_ invocation: Invocation) throws {
            let command = invocation.command
            context = invocation.passwordContext
            do {
                filters = Filters(online: command[Self.online], groups: try command.values(Self.group),
                                  subscription: try command.value(Self.subscription))
            } catch {
                throw ToolFailure(.usage, error.reason.description)
            }
            fromCache = command[Self.cached]
            learnPresence = !command[Self.noPresence]
        }

        func run() throws {
            var items: [RosterItem]
            var book: PresenceBook?
            if fromCache {
                items = try RosterSession.cachedItems(context)
            } else {
                let session = try RosterSession.open(context)
                defer { session.close() }
                try session.sync()
                if learnPresence {
                    var gathered = PresenceBook(account: session.account)
                    // Built in place (no arrays between) and handed over, not copied.
                    let subscribed = session.roster.values.lazy.filter { $0.subscription.receivesPresence }.map(\.jid)
                    try session.gatherPresence(expecting: Set(subscribed)) { gathered.add($0) }
                    book = gathered
                }
                items = session.takeItems()
            }
            // One pass into one array (a map then a filter made two of 2,000 rows).
            var rows: [(RosterItem, ContactPresence)] = []
            rows.reserveCapacity(items.count)
            let unknown = ContactPresence.unknown
            for item in items {
                let presence = book?.presence(of: item.jid) ?? unknown
                if filters.accepts(item, presence) { rows.append((item, presence)) }
            }
            items = []  // the rows hold them now
            print(rows)
        }

        /// Output is written in pieces of about this size: every row is known before the first
        /// write, so nothing can fail half-way, and one reused buffer is fewer fresh pages to
        /// fault in than the whole list (480 KB of JSON for 2,000 contacts).
        static let outputChunk = 64 * 1024

        private func print(_ rows: [(RosterItem, ContactPresence)]) {
            if context.common.json {
                var json = RosterOutput.prettyJSON(rows, flushAt: Self.outputChunk, flush: Output.bytes)
                json.append(UInt8(ascii: "\n"))
                Output.bytes(json)
                return
            }
            guard Output.stdoutIsTTY else {
                Output.bytes(RosterOutput.tabSeparatedList(rows, flushAt: Self.outputChunk, flush: Output.bytes))
                return
            }
            RosterOutput.table(header: ["JID", "NAME", "GROUPS", "SUBSCRIPTION", "PRESENCE", "STATUS"],
                               rows: rows.map(RosterOutput.listCells))
        }
    }
}
