import XMLTree
import XMPPConnection
import XMPPStanzas

/// What a roster get returned.
public enum RosterFetch: Sendable, Equatable {
    /// The server said the cached version is current (XEP-0237 empty result): nothing was transferred.
    case unchanged
    /// The whole roster, with its version if the server versions rosters.
    case full(RosterQuery)
}

/// The RFC 6121 §2 roster: get (versioned, XEP-0237), set, remove, and recognising pushes. Network only.
public enum RosterService {
    /// Gets the roster. With `cachedVer` and a server that advertises versioning, an unchanged
    /// roster costs one empty result; without a cached copy an empty `ver` still tells the
    /// server that this client versions, so the reply carries the version to keep.
    public static func fetch(on connection: any StanzaChannel, cachedVer: String?) throws(ConnectionError) -> RosterFetch {
        try requestFetch(on: connection, cachedVer: cachedVer).finish(on: connection)
    }

    /// Sends the roster get without waiting, so the caller can read its cached copy meanwhile.
    public static func requestFetch(on connection: any StanzaChannel, cachedVer: String?) throws(ConnectionError) -> PendingFetch {
        let (get, pending) = fetchRequest(on: connection, cachedVer: cachedVer)
        try connection.send(get.element)
        return pending
    }

    /// The roster get, not sent yet (a caller that sends and reads itself), and what awaits its answer.
    public static func fetchRequest(on connection: any StanzaChannel, cachedVer: String?) -> (Iq, PendingFetch) {
        let versioning = connection.features.rosterVersioning
        let id = connection.makeID()
        return (Iq(type: .get, id: id, payload: RosterQuery.get(ver: versioning ? (cachedVer ?? "") : nil)),
                PendingFetch(id: id, sentVer: versioning ? cachedVer : nil))
    }

    /// A roster get on its way.
    public struct PendingFetch: Sendable {
        /// The roster get's IQ id.
        public let id: String
        let sentVer: String?

        /// Waits for the answer.
        public func finish(on connection: any StanzaChannel) throws(ConnectionError) -> RosterFetch {
            try take(connection.awaitReply(id: id))
        }

        /// The roster from the result to the get (a caller that reads replies itself).
        public func take(_ reply: Iq) throws(ConnectionError) -> RosterFetch {
            guard let payload = reply.payload else {
                guard sentVer != nil else {
                    throw .protocolViolation("the server answered the roster request with an empty result")
                }
                return .unchanged
            }
            do { return .full(try RosterQuery(element: payload)) } catch { throw .badStanza(error) }
        }
    }

    /// The roster set that adds or updates `item` (name and groups; the server keeps the subscription).
    public static func setIq(_ item: RosterItem, id: String) -> Iq {
        Iq(type: .set, id: id, payload: RosterQuery.set(item))
    }

    /// Adds or updates `item` and waits for the server's answer.
    public static func set(_ item: RosterItem, on connection: any StanzaChannel) throws(ConnectionError) {
        try connection.request(setIq(item, id: connection.makeID()))
    }

    /// The roster set that removes `jid` (subscription='remove').
    public static func removeIq(_ jid: JID, id: String) -> Iq {
        Iq(type: .set, id: id, payload: RosterQuery.remove(jid))
    }

    /// Removes `jid` from the roster; the server also cancels subscriptions both ways (RFC 6121 §2.5).
    /// A contact that is not in the roster is `item-not-found`.
    public static func remove(_ jid: JID, on connection: any StanzaChannel) throws(ConnectionError) {
        try connection.request(removeIq(jid, id: connection.makeID()))
    }

    /// The push in `iq`, if it is a legitimate roster push for `account` (RFC 6121 §2.1.6: a set
    /// with exactly one item, from the account's bare JID or with no `from`); nil otherwise.
    public static func push(in iq: Iq, account: JID) -> RosterQuery? {
        guard iq.type == .set, let payload = iq.payload, payload.name == "query", payload.namespace == Namespace.roster else {
            return nil
        }
        if let from = iq.from, from != account.bare { return nil }
        guard let query = try? RosterQuery(element: payload), query.items.count == 1 else { return nil }
        return query
    }
}
