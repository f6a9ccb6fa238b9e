import XMLTree
import XMPPConnection
import XMPPStanzas

/// Why a PubSub request failed (beyond what the connection reports).
public enum PubSubError: Error, Sendable, CustomStringConvertible {
    /// The service answered with items that cannot be read: the node, and why.
    case invalidItems(node: String, StanzaParseError)
    /// The connection or the service refused.
    case connection(ConnectionError)

    public var description: String {
        switch self {
        case .invalidItems(let node, let e): return "invalid \(node) items from the server: \(e)"
        case .connection(let e): return e.description
        }
    }
}

/// How a publish that asked for node configuration (publish-options) went.
public enum PublishOptionsOutcome: String, Sendable {
    /// The service applied or confirmed the options.
    case accepted
    /// The node had another configuration; it was reconfigured, then the publish succeeded.
    case reconfigured
    /// The service refused the options (or refused to reconfigure); the item was published without them.
    case ignored
}

/// The XEP-0060 requests PEP (XEP-0163) needs: read items, publish with publish-options and
/// the §7.1.5 recovery, retract. Network only.
public enum PubSubClient {
    /// Conditions that mean "there is nothing here": no node, no such account, or no PEP
    /// service at all. An access model that excludes the requester (not-authorized,
    /// forbidden, not-allowed…) is an error: the caller tells it apart from absence.
    static let absentConditions: Set<StanzaError.Condition> = [
        .itemNotFound, .serviceUnavailable, .featureNotImplemented,
    ]

    /// Conditions of an access model that excludes the requester: the node may well exist.
    static let refusalConditions: Set<StanzaError.Condition> = [
        .forbidden, .notAuthorized, .notAllowed, .registrationRequired, .subscriptionRequired,
    ]

    /// Whether `error` is the node's access model refusing this account (for readers, such as a
    /// merged profile, to whom a node they may not read counts as absent).
    public static func isRefusal(_ error: PubSubError) -> Bool {
        if case .connection(.stanzaError(let e)) = error { return refusalConditions.contains(e.condition) }
        return false
    }

    /// The items of `node` at `jid` (nil: the account's own PEP service): the newest `maxItems`,
    /// or those with `ids`. Nil when the node is absent; a refusal throws its stanza error.
    public static func items(on connection: any StanzaChannel, jid: JID?, node: String, ids: [String] = [],
                             maxItems: Int? = nil) throws(PubSubError) -> [PubSubItem]? {
        let request = itemsRequest(jid: jid, node: node, id: connection.makeID(), ids: ids, maxItems: maxItems)
        do { try connection.send(request.element) } catch { throw .connection(error) }
        return try itemsReply(on: connection, id: request.id, node: node)
    }

    /// The items request `items` sends, for pipelines that send several before reading replies.
    public static func itemsRequest(jid: JID?, node: String, id: String, ids: [String] = [], maxItems: Int? = nil) -> Iq {
        let request = PubSubItems(node: node, items: ids.map { PubSubItem(id: $0) }, maxItems: maxItems)
        return Iq(type: .get, id: id, to: jid?.bare, payload: request.element)
    }

    /// Waits for the reply to an items request sent with `id`: its items, or nil when the node
    /// is absent; a refusal throws its stanza error (`isRefusal`).
    public static func itemsReply(on connection: any StanzaChannel, id: String, node: String) throws(PubSubError) -> [PubSubItem]? {
        let reply: Iq
        do {
            reply = try connection.awaitReply(id: id)
        } catch {
            if case .stanzaError(let e) = error, absentConditions.contains(e.condition) { return nil }
            throw .connection(error)
        }
        guard let payload = reply.payload else { return [] }
        let result: PubSubItems
        do { result = try PubSubItems(element: payload) } catch { throw .invalidItems(node: node, error) }
        guard result.node == node else {
            throw .invalidItems(node: node, .invalidContent("items of node '\(result.node)', asked for '\(node)'"))
        }
        return result.items
    }

    /// Sets `fields` of the account's own `node` as its owner (XEP-0060 §8.2.4).
    public static func configure(on connection: any StanzaChannel, node: String, fields: [String: String]) throws(PubSubError) {
        if let error = attempt(connection, PubSubConfigure(node: node, fields: fields).element) { throw .connection(error) }
    }

    /// Publishes `item` to the account's own `node`, asking for `options` as publish-options.
    /// A node with another configuration is reconfigured and the publish repeated; a service
    /// that does not take publish-options gets the item without them. Without options, the
    /// node keeps whatever configuration it has (or the service's default, when it is new).
    public static func publish(on connection: any StanzaChannel, node: String, item: PubSubItem,
                               options: [String: String]?) throws(PubSubError) -> PublishOptionsOutcome {
        guard let options else {
            if let error = attempt(connection, PubSubPublish(node: node, item: item)) { throw .connection(error) }
            return .ignored
        }
        let first = attempt(connection, PubSubPublish(node: node, item: item, options: options))
        guard case .stanzaError(let error)? = first else {
            if let first { throw .connection(first) }
            return .accepted
        }
        switch PublishOptionsRecovery(after: error) {
        case .fail:
            throw .connection(.stanzaError(error))
        case .reconfigureNode:
            let configure = PubSubConfigure(node: node, fields: options)
            if attempt(connection, configure.element) == nil,
               attempt(connection, PubSubPublish(node: node, item: item, options: options)) == nil {
                return .reconfigured
            }
        case .publishWithoutOptions:
            break
        }
        if let last = attempt(connection, PubSubPublish(node: node, item: item, options: nil)) { throw .connection(last) }
        return .ignored
    }

    /// Retracts `ids` from the account's own `node`, notifying subscribers; ids that are already
    /// gone are not an error.
    public static func retract(on connection: any StanzaChannel, node: String, ids: [String]) throws(PubSubError) {
        for id in ids {
            guard let error = attempt(connection, PubSubRetract(node: node, ids: [id]).element) else { continue }
            if case .stanzaError(let e) = error, e.condition == .itemNotFound { continue }
            throw .connection(error)
        }
    }

    private static func attempt(_ connection: any StanzaChannel, _ publish: PubSubPublish) -> ConnectionError? {
        attempt(connection, publish.element)
    }

    /// Sends one IQ set; the error, if any (kept out of a typed catch, see AccountContext.resume).
    private static func attempt(_ connection: any StanzaChannel, _ payload: XMLElement) -> ConnectionError? {
        do {
            try connection.request(Iq(type: .set, id: connection.makeID(), payload: payload))
            return nil
        } catch {
            return error
        }
    }
}
