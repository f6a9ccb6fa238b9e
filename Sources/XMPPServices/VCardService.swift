import XMLTree
import XMPPConnection
import XMPPStanzas

/// Why a vCard could not be fetched or published (beyond what the connection reports).
public enum VCardServiceError: Error, Sendable, CustomStringConvertible {
    /// The JID has no vCard: the server said item-not-found or service-unavailable (no such
    /// account), or answered an empty vCard, which XEP-0054 §3.2 makes the same.
    case notFound(JID)
    /// The server answered with something that is not a vCard.
    case invalidCard(StanzaParseError)
    /// The connection or the server refused.
    case connection(ConnectionError)

    public var description: String {
        switch self {
        case .notFound(let jid): return "\(jid) has no vCard (or there is no such account)"
        case .invalidCard(let e): return "invalid vCard from the server: \(e)"
        case .connection(let e): return e.description
        }
    }
}

/// vcard-temp (XEP-0054): fetch one's own or others' cards, publish one's own. Network only.
public enum VCardService {
    /// The `get` request for `jid`'s card; nil asks for one's own.
    public static func request(for jid: JID?, id: String) -> Iq {
        Iq(type: .get, id: id, to: jid?.bare, payload: XMLElement("vCard", namespace: Namespace.vcardTemp))
    }

    /// Fetches `jid`'s card (nil: one's own). One's own missing card is an empty card; another's
    /// is `.notFound`.
    public static func fetch(on connection: any StanzaChannel, jid: JID?) throws(VCardServiceError) -> VCard {
        let id = connection.makeID()
        do { try connection.send(request(for: jid, id: id).element) } catch { throw .connection(error) }
        return try reply(on: connection, id: id, jid: jid)
    }

    /// One's own card from the reply to `request(for: nil, …)`, for a caller that reads its own
    /// replies (a poll loop): an error answering "no card" is the empty card.
    public static func ownCard(in reply: Iq) throws(VCardServiceError) -> VCard {
        if reply.type == .error {
            let e = reply.error ?? StanzaError(type: "cancel", condition: .undefinedCondition)
            if [.itemNotFound, .serviceUnavailable].contains(e.condition) { return VCard() }
            throw .connection(.stanzaError(e))
        }
        return try reply.payload.map { p throws(VCardServiceError) in try readCard(p) } ?? VCard()
    }

    /// Waits for the reply to a request sent with `id` and reads it as `jid`'s card.
    static func reply(on connection: any StanzaChannel, id: String, jid: JID?) throws(VCardServiceError) -> VCard {
        let iq: Iq
        do {
            iq = try connection.awaitReply(id: id)
        } catch {
            if case .stanzaError(let e) = error, [.itemNotFound, .serviceUnavailable].contains(e.condition) {
                guard let jid else { return VCard() }
                throw .notFound(jid)
            }
            throw .connection(error)
        }
        let card = try iq.payload.map { p throws(VCardServiceError) in try readCard(p) } ?? VCard()
        if let jid, card.isEmpty { throw .notFound(jid) }
        return card
    }

    private static func readCard(_ payload: XMLElement) throws(VCardServiceError) -> VCard {
        do { return try VCard(element: payload) } catch { throw .invalidCard(error) }
    }

    /// Publishes `card` as one's own (it replaces the whole card on the server).
    public static func publish(_ card: VCard, on connection: any StanzaChannel) throws(VCardServiceError) {
        do {
            try connection.request(Iq(type: .set, id: connection.makeID(), payload: card.element))
        } catch {
            throw .connection(error)
        }
    }
}
