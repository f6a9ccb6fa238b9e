import XMLTree
import XMPPConnection
import XMPPStanzas

/// One connection as the account, holding its roster (RFC 6121 §2): synced against the stored
/// copy (XEP-0237: the copy is used when the server says it is current), roster pushes applied
/// to both, and a clean close that goes unavailable again if the session went online.
public final class RosterSession {
    /// The account's stream.
    public let connection: any StanzaChannel
    private let closeStream: () -> Void
    /// The account, as a bare JID.
    public let account: JID
    private let store: (any RosterCopyStore)?
    private let warn: (String) -> Void
    /// The roster as the server has it, by contact.
    public private(set) var roster: [JID: RosterItem] = [:]
    /// The stored copy `roster` was made from (or written as): its version and generation.
    private var base = RosterCopyStamp(ver: nil, generation: 0)
    /// Whether the roster was transferred (false: the stored copy was current).
    public private(set) var transferred = false
    private var online = false

    /// A session on an authenticated `connection`; `warn` is told of roster items the server
    /// sent that could not be read.
    public convenience init(connection: Connection, account: JID, store: (any RosterCopyStore)?, warn: @escaping (String) -> Void) {
        self.init(channel: connection, close: connection.close, account: account, store: store, warn: warn)
    }

    /// A session on any stanza channel (the tests' scripted one), closed by `close`.
    init(channel: any StanzaChannel, close: @escaping () -> Void, account: JID, store: (any RosterCopyStore)?,
         warn: @escaping (String) -> Void) {
        connection = channel
        closeStream = close
        self.account = account
        self.store = store
        self.warn = warn
    }

    /// Gets the roster, versioned against the stored copy, and stores a transferred copy. The
    /// stored items are read while the server works on the request.
    public func sync() throws(ConnectionError) {
        let seen = store?.stamp()
        let pending = try RosterService.requestFetch(on: connection, cachedVer: seen?.ver)
        let cached = seen?.ver == nil ? nil : store?.load()
        switch try pending.finish(on: connection) {
        case .unchanged:
            guard let cached, cached.stamp.ver == seen?.ver else {
                // Another process replaced the stored copy between the two reads: ask again in full.
                let again = store?.stamp()
                try take(fresh: RosterService.fetch(on: connection, cachedVer: nil), seen: again)
                return
            }
            take(cached.items, base: cached.stamp)
        case .full(let query):
            try take(fresh: .full(query), seen: seen)
        }
    }

    /// Takes the server's copy, and stores it unless another process wrote this account's
    /// stored roster after `seen` was read.
    private func take(fresh fetch: RosterFetch, seen: RosterCopyStamp?) throws(ConnectionError) {
        guard case .full(let query) = fetch else { throw .protocolViolation("the server sent no roster") }
        transferred = true
        for left in query.unreadable { warn(left) }
        let items = query.items.map(Self.sortedGroups)
        let seenGeneration = seen?.generation ?? 0
        take(items, base: RosterCopyStamp(ver: query.ver, generation: seenGeneration))
        if let generation = store?.replace(ver: query.ver, items: items, ifGeneration: seenGeneration) {
            base.generation = generation
        }
    }

    /// The contacts, ordered by JID (byte order, as the store keeps them), taken out of the
    /// session: its roster is empty afterwards, so the dictionary is gone before the list is
    /// sorted (for 2,000 contacts it and the sort's copies were half a roster list's heap).
    public func takeItems() -> [RosterItem] {
        let items = Array(roster.values)
        roster = [:]
        return Self.sortedByJID(items)
    }

    /// `items` in byte order of their JIDs, each JID's text made once.
    public static func sortedByJID(_ items: [RosterItem]) -> [RosterItem] {
        let keys = items.map { $0.jid.description }
        return keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }.map { items[$0] }
    }

    /// Sends `first` and a ping, applies the pushes that arrive before the pong, returns every event.
    public func barrier(sending first: [XMLElement] = []) throws(ConnectionError) -> [IncomingEvent] {
        var events: [IncomingEvent] = []
        try barrier(sending: first) { events.append($0) }
        return events
    }

    /// `barrier`, handing each event to `each` as it arrives; the pushes are applied at the pong.
    public func barrier(sending first: [XMLElement] = [], each: (IncomingEvent) -> Void) throws(ConnectionError) {
        if first.contains(where: { $0.name == "presence" && $0[attribute: "type"] == nil }) { online = true }
        var pushes: [RosterQuery] = []
        try PresenceService.barrier(on: connection, account: account, sending: first) { event in
            if case .rosterPush(let q) = event { pushes.append(q) }
            each(event)
        }
        apply(pushes)
    }

    /// Sends `changes` a window at a time (`RosterChanges`), waiting for each window's ping;
    /// roster pushes that arrive meanwhile are applied. The refused changes stay in `changes`.
    public func send(_ changes: RosterChanges) throws(ConnectionError) {
        var pushes: [RosterQuery] = []
        defer { apply(pushes) }
        var step = changes.start(account: account, makeID: connection.makeID)
        var deadline = ContinuousClock.now + connection.timeout
        while true {
            switch step {
            case .finished: return
            case .send(let window):
                try connection.send(window)
                deadline = .now + connection.timeout
            case .waiting: break
            }
            switch try PresenceService.next(on: connection, account: account, deadline: deadline) {
            case .reply(let iq): step = changes.receive(iq, account: account, makeID: connection.makeID)
            case .rosterPush(let push): pushes.append(push); step = .waiting
            default: step = .waiting
            }
        }
    }

    /// The presence of `expected` (the contacts whose presence the account may see), each
    /// presence handed to `each` as it arrives (`PresenceSnapshot`); roster pushes that arrive
    /// meanwhile are applied. `expected` is consumed.
    public func gatherPresence(expecting expected: consuming Set<JID>, each: (Presence) -> Void) throws(ConnectionError) {
        let outcome = try PresenceSnapshot.gather(on: connection, account: account, expecting: expected,
                                                  pushes: { apply($0) }, each: each)
        if outcome.wentOnline { online = true }
    }

    /// Applies roster pushes to the in-memory roster and, when it follows the stored version, the stored copy.
    public func apply(_ received: [RosterQuery]) {
        guard !received.isEmpty else { return }
        let pushes = received.map { RosterQuery(ver: $0.ver, items: $0.items.map(Self.sortedGroups)) }
        for push in pushes {
            for item in push.items {
                if item.subscription == .remove { roster[item.jid] = nil } else { roster[item.jid] = item }
            }
        }
        let onto = base
        base.ver = pushes.last?.ver
        // Not applied: another process stored another copy; this session's copy no longer names one.
        base.generation = 0
        if let patched = store?.apply(pushes, onto: onto) { base = patched }
    }

    /// Marks the session as online (after sending available presence directly).
    public func wentOnline() { online = true }

    /// Goes unavailable if this session went online, and closes the stream.
    public func close() {
        if online { try? PresenceService.send([PresenceService.unavailable], on: connection) }
        closeStream()
    }

    /// Servers keep groups as a set (Prosody reorders them): show and store them sorted.
    public static func sortedGroups(_ item: RosterItem) -> RosterItem {
        var copy = item
        copy.groups.sort()
        return copy
    }

    private func take(_ items: [RosterItem], base: RosterCopyStamp) {
        // Filled in place: a (key, item) array first would hold the roster twice at its peak.
        var byJID = [JID: RosterItem](minimumCapacity: items.count)
        for item in items { byJID[item.jid] = item }  // a later duplicate wins
        roster = byJID
        self.base = base
    }
}
