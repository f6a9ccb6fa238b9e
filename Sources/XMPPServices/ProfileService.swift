import XMLTree
import XMPPConnection
import XMPPStanzas

/// The vCard4 (XEP-0292) and nickname (XEP-0172) PEP nodes, and all three profile stores read
/// together. Network only.
public enum ProfileService {
    /// The item id XEP-0292 and XEP-0172 publish under (one item per node).
    public static let itemID = "current"

    /// The PEP node of a PEP store; nil for vcard-temp.
    public static func node(of store: ProfileStore) -> String? {
        switch store {
        case .vcardTemp: return nil
        case .vcard4: return Namespace.vcard4Node
        case .nick: return Namespace.nick
        }
    }

    /// `jid`'s vCard4 (nil: one's own); nil when the node is absent or not readable.
    public static func fetchVCard4(on connection: any StanzaChannel, jid: JID?) throws(PubSubError) -> VCard4? {
        do { return try vcard4(from: PubSubClient.items(on: connection, jid: jid, node: Namespace.vcard4Node, maxItems: 1)) }
        catch where PubSubClient.isRefusal(error) { return nil }
    }

    /// `jid`'s nickname node (nil: one's own); nil when absent or not readable.
    public static func fetchNickname(on connection: any StanzaChannel, jid: JID?) throws(PubSubError) -> UserNickname? {
        do { return try nickname(from: PubSubClient.items(on: connection, jid: jid, node: Namespace.nick, maxItems: 1)) }
        catch where PubSubClient.isRefusal(error) { return nil }
    }

    /// One's own three stores, one request each.
    public static func fetchOwn(on connection: any StanzaChannel, stores: Set<ProfileStore> = Set(ProfileStore.allCases))
        throws(ProfileServiceError) -> StoredProfile {
        var stored = StoredProfile()
        do {
            if stores.contains(.vcardTemp) { stored.vcardTemp = try VCardService.fetch(on: connection, jid: nil) }
        } catch { throw .vcardTemp(error) }
        do {
            if stores.contains(.vcard4) { stored.vcard4 = try fetchVCard4(on: connection, jid: nil) }
            if stores.contains(.nick) { stored.nick = try fetchNickname(on: connection, jid: nil) }
        } catch { throw .pep(error) }
        return stored
    }

    /// Publishes one's own vCard4 as the node's one item, asking for `access` (a
    /// `pubsub#access_model`: open, presence, roster) when given.
    @discardableResult
    public static func publish(_ vcard4: VCard4, on connection: any StanzaChannel, access: String?) throws(PubSubError) -> PublishOptionsOutcome {
        try PubSubClient.publish(on: connection, node: Namespace.vcard4Node,
                                 item: PubSubItem(id: itemID, payload: vcard4.element), options: options(access))
    }

    /// Publishes one's own nickname (an empty `<nick/>` when nil: XEP-0172 §4.5's "no nickname").
    @discardableResult
    public static func publish(_ nick: UserNickname, on connection: any StanzaChannel, access: String?) throws(PubSubError) -> PublishOptionsOutcome {
        try PubSubClient.publish(on: connection, node: Namespace.nick,
                                 item: PubSubItem(id: itemID, payload: nick.element), options: options(access))
    }

    static func options(_ access: String?) -> [String: String]? {
        access.map { ["pubsub#access_model": $0, "pubsub#persist_items": "true"] }
    }

    static func vcard4(from items: [PubSubItem]?) throws(PubSubError) -> VCard4? {
        guard let payload = items?.last?.payload else { return nil }
        do { return try VCard4(element: payload) } catch { throw .invalidItems(node: Namespace.vcard4Node, error) }
    }

    static func nickname(from items: [PubSubItem]?) throws(PubSubError) -> UserNickname? {
        guard let payload = items?.last?.payload else { return nil }
        do { return try UserNickname(element: payload) } catch { throw .invalidItems(node: Namespace.nick, error) }
    }
}

/// Why a profile could not be read or written.
public enum ProfileServiceError: Error, Sendable, CustomStringConvertible {
    /// vcard-temp failed.
    case vcardTemp(VCardServiceError)
    /// A PEP node failed.
    case pep(PubSubError)
    /// No store this account may read holds anything for this JID; `refused` are the PEP stores
    /// whose access model kept it out (forbidden, not-authorized …), so the JID may well have a
    /// profile that it shares only with others, such as its contacts.
    case notFound(JID, refused: [ProfileStore] = [])

    public var description: String {
        switch self {
        case .vcardTemp(let e): return e.description
        case .pep(let e): return e.description
        case .notFound(let jid, let refused) where !refused.isEmpty:
            let names = refused.map(\.rawValue).joined(separator: " and ")
            return "\(jid) has no vCard this account may read: its \(names) \(refused.count == 1 ? "node" : "nodes") "
                + "refused to be read (shared with others only, such as its contacts)"
        case .notFound(let jid, _): return "\(jid) has no vCard, vCard4 or nickname (or there is no such account)"
        }
    }

    /// The connection error underneath, if any.
    public var connectionError: ConnectionError? {
        switch self {
        case .vcardTemp(.connection(let e)), .pep(.connection(let e)): return e
        default: return nil
        }
    }
}
