import XMLTree

/// The RFC 6121 §2 `<query xmlns='jabber:iq:roster' ver='…'/>` payload: a whole roster in a
/// result, one item in a set or push. `ver` is the XEP-0237 / RFC 6121 §2.6 roster version.
public struct RosterQuery: Sendable, Equatable {
    /// The roster version the server gave, if it versions rosters.
    public var ver: String?
    /// The items, in document order.
    public var items: [RosterItem]
    /// Items left out because their JID is not one RFC 7622 allows (another client, or an older
    /// server, wrote it), each as a sentence naming the JID; the rest of the roster stays usable.
    public var unreadable: [String] = []

    /// Largest number of items read from one query; more is treated as malformed.
    public static let maxItems = 100_000

    /// Builds a query.
    public init(ver: String? = nil, items: [RosterItem] = []) {
        self.ver = ver
        self.items = items
    }

    /// Reads a roster query element. An item whose JID RFC 7622 refuses is left out and named in
    /// `unreadable`; any other malformed item makes the whole query malformed.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("query", namespace: Namespace.roster)
        ver = element[attribute: "ver"]
        var items: [RosterItem] = []
        for child in element.elements where child.name == "item" && child.namespace == Namespace.roster {
            guard items.count < RosterQuery.maxItems else {
                throw .invalidContent("roster with more than \(RosterQuery.maxItems) items")
            }
            do {
                items.append(try RosterItem(element: child))
            } catch {
                guard case .invalidJID(_, let value, let reason) = error else { throw error }
                unreadable.append("roster item '\(JID.printable(value))' left out: \(reason)")
            }
        }
        self.items = items
    }

    /// The query as a server sends it.
    public var element: XMLElement {
        var e = XMLElement("query", namespace: Namespace.roster)
        if let ver { e[attribute: "ver"] = ver }
        for item in items { e.append(item.element) }
        return e
    }

    /// The payload of a roster get; `ver` (XEP-0237) asks for changes since that version only,
    /// and an empty `ver` says the client supports versioning but has no copy.
    public static func get(ver: String?) -> XMLElement {
        var e = XMLElement("query", namespace: Namespace.roster)
        if let ver { e[attribute: "ver"] = ver }
        return e
    }

    /// The payload of a roster set that adds or updates `item`.
    public static func set(_ item: RosterItem) -> XMLElement {
        XMLElement("query", namespace: Namespace.roster, children: [.element(item.setElement)])
    }

    /// The payload of a roster set that removes `jid` (RFC 6121 §2.5).
    public static func remove(_ jid: JID) -> XMLElement {
        set(RosterItem(jid: jid, subscription: .remove))
    }
}
