import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// One connection of `xmpp-roster` as the account: the synced roster (from the cache when the
/// server says it is current), pushes applied to both, and a clean close that goes unavailable
/// again if this run went online.
final class RosterSession {
    let connection: Connection
    let account: JID
    let environment: ToolEnvironment
    let cache: RosterCache?
    /// The roster as the server has it, by contact.
    private(set) var roster: [JID: RosterItem] = [:]
    /// The cached copy `roster` was made from (or written as): its version and generation.
    private var base = RosterCacheStamp(ver: nil, generation: 0)
    /// Whether the roster was transferred (false: the cached copy was current).
    private(set) var transferred = false
    private var online = false

    private init(connection: Connection, account: JID, environment: ToolEnvironment, cache: RosterCache?) {
        self.connection = connection
        self.account = account
        self.environment = environment
        self.cache = cache
    }

    /// Connects with the cached session and opens the cache (a cache that cannot be opened is a warning).
    static func open(_ context: AccountContext) throws -> RosterSession {
        let (connection, account) = try context.connectWithSession()
        return RosterSession(connection: connection, account: account, environment: context.environment,
                             cache: openCache(context.environment))
    }

    /// The roster cache, or nil with a warning.
    static func openCache(_ environment: ToolEnvironment) -> RosterCache? {
        do {
            return RosterCache(cache: try Cache(paths: environment.paths, areas: [.roster]) { environment.warn($0) })
        } catch {
            environment.warn("roster cache unavailable: \(error)")
            return nil
        }
    }

    /// The account's cached roster, without the network (`--cached`); not found when there is none.
    static func cachedItems(_ context: AccountContext) throws -> [RosterItem] {
        let account = try context.accountJID()
        guard let cache = openCache(context.environment), let roster = try cache.load(account: account) else {
            throw ToolFailure(.notFound, "no cached roster for \(account): run 'xmpp-roster list' once while online")
        }
        return roster.items
    }

    /// Gets the roster, versioned against the cache, and stores a transferred copy. The cached
    /// items are read while the server works on the request.
    func sync() throws {
        let seen = cachedStamp()
        let pending = try RosterService.requestFetch(on: connection, cachedVer: seen?.ver)
        let cached = seen?.ver == nil ? nil : loadCached()
        switch try pending.finish(on: connection) {
        case .unchanged:
            guard let cached, cached.ver == seen?.ver else {
                // Another tool replaced the cached copy between the two reads: ask again in full.
                let again = cachedStamp()
                try take(fresh: RosterService.fetch(on: connection, cachedVer: nil), seen: again)
                return
            }
            take(cached.items, base: cached.stamp)
        case .full(let query):
            try take(fresh: .full(query), seen: seen)
        }
    }

    /// Takes the server's copy, and caches it unless another tool wrote this account's cached
    /// roster after `seen` was read.
    private func take(fresh fetch: RosterFetch, seen: RosterCacheStamp?) throws {
        guard case .full(let query) = fetch else { throw ToolFailure(.network, "the server sent no roster") }
        transferred = true
        for left in query.unreadable { environment.warn(left) }
        let items = query.items.map(Self.sortedGroups)
        let seenGeneration = seen?.generation ?? 0
        take(items, base: RosterCacheStamp(ver: query.ver, generation: seenGeneration))
        store {
            if let generation = try $0.replace(account: account, ver: query.ver, items: items, now: environment.now,
                                               ifGeneration: seenGeneration) {
                base.generation = generation
            }
        }
    }

    /// The contacts, ordered by JID (byte order, as the cache stores them), taken out of the
    /// session: its roster is empty afterwards, so the dictionary is gone before the list is
    /// sorted (for 2,000 contacts it and the sort's copies were half a roster list's heap).
    func takeItems() -> [RosterItem] {
        let items = Array(roster.values)
        roster = [:]
        return Self.sortedByJID(items)
    }

    /// `items` in byte order of their JIDs, each JID's text made once.
    static func sortedByJID(_ items: [RosterItem]) -> [RosterItem] {
        let keys = items.map { $0.jid.description }
        return keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }.map { items[$0] }
    }

    /// Sends `first` and a ping, applies the pushes that arrive before the pong, returns every event.
    func barrier(sending first: [XMLElement] = []) throws -> [IncomingEvent] {
        var events: [IncomingEvent] = []
        try barrier(sending: first) { events.append($0) }
        return events
    }

    /// `barrier`, handing each event to `each` as it arrives; the pushes are applied at the pong.
    func barrier(sending first: [XMLElement] = [], each: (IncomingEvent) -> Void) throws {
        if first.contains(where: { $0.name == "presence" && $0[attribute: "type"] == nil }) { online = true }
        var pushes: [RosterQuery] = []
        try PresenceService.barrier(on: connection, account: account, sending: first) { event in
            if case .rosterPush(let q) = event { pushes.append(q) }
            each(event)
        }
        apply(pushes)
    }

    /// The presence of `expected` (the contacts whose presence the account may see), each
    /// presence handed to `each` as it arrives (`PresenceSnapshot`); roster pushes that arrive
    /// meanwhile are applied. `expected` is consumed.
    func gatherPresence(expecting expected: consuming Set<JID>, each: (Presence) -> Void) throws {
        let outcome = try PresenceSnapshot.gather(on: connection, account: account, expecting: expected,
                                                  pushes: { apply($0) }, each: each)
        if outcome.wentOnline { online = true }
    }

    /// Applies roster pushes to the in-memory roster and, when it follows the cached version, the cache.
    func apply(_ received: [RosterQuery]) {
        guard !received.isEmpty else { return }
        let pushes = received.map { RosterQuery(ver: $0.ver, items: $0.items.map(Self.sortedGroups)) }
        for push in pushes {
            for item in push.items {
                if item.subscription == .remove { roster[item.jid] = nil } else { roster[item.jid] = item }
            }
        }
        let onto = base
        base.ver = pushes.last?.ver
        // Not applied: another tool stored another copy; this session's copy no longer names one.
        base.generation = 0
        store {
            if let patched = try $0.apply(account: account, pushes: pushes, onto: onto, now: environment.now) { base = patched }
        }
    }

    /// Marks the session as online (after sending available presence directly).
    func wentOnline() { online = true }

    /// Goes unavailable if this run went online, and closes the stream.
    func close() {
        if online { try? PresenceService.send([PresenceService.unavailable], on: connection) }
        connection.close()
    }

    /// Servers keep groups as a set (Prosody reorders them): show and cache them sorted.
    static func sortedGroups(_ item: RosterItem) -> RosterItem {
        var copy = item
        copy.groups.sort()
        return copy
    }

    private func take(_ items: [RosterItem], base: RosterCacheStamp) {
        // Filled in place: a (key, item) array first would hold the roster twice at its peak.
        var byJID = [JID: RosterItem](minimumCapacity: items.count)
        for item in items { byJID[item.jid] = item }  // a later duplicate wins
        roster = byJID
        self.base = base
    }

    private func cachedStamp() -> RosterCacheStamp? {
        guard let cache else { return nil }
        do { return try cache.stamp(account: account) } catch {
            environment.warn("cannot read the roster cache: \(error)")
            return nil
        }
    }

    private func loadCached() -> CachedRoster? {
        guard let cache else { return nil }
        do { return try cache.load(account: account) } catch {
            environment.warn("cannot read the roster cache: \(error)")
            return nil
        }
    }

    private func store(_ body: (RosterCache) throws -> Void) {
        guard let cache else { return }
        do { try body(cache) } catch { environment.warn("cannot update the roster cache: \(error)") }
    }
}
