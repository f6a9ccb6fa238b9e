import XMLTree

/// A XEP-0030 `<query xmlns='http://jabber.org/protocol/disco#items'/>`: the items of an
/// entity's node (for ad-hoc commands, the node `http://jabber.org/protocol/commands`).
public struct DiscoItems: Sendable, Equatable {
    /// One item: an entity, optionally a node of it, and its name.
    public struct Item: Sendable, Equatable {
        public var jid: JID
        public var node: String?
        public var name: String?

        /// Builds an item.
        public init(jid: JID, node: String? = nil, name: String? = nil) {
            self.jid = jid
            self.node = node
            self.name = name
        }
    }

    /// The node asked about (nil: the entity itself).
    public var node: String?
    /// The items, in the server's order.
    public var items: [Item]

    /// Builds a value.
    public init(node: String? = nil, items: [Item] = []) {
        self.node = node
        self.items = items
    }

    /// Reads a disco#items query; an item without a valid `jid` is an error naming it.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("query", namespace: Namespace.discoItems)
        node = element[attribute: "node"]
        var items: [Item] = []
        for item in element.children("item", namespace: Namespace.discoItems) {
            let text = try item.required("jid")
            let jid: JID
            do { jid = try JID(text) } catch { throw .invalidJID(attribute: "jid", value: text, error) }
            items.append(Item(jid: jid, node: item[attribute: "node"], name: item[attribute: "name"]))
        }
        self.items = items
    }

    /// The element: a request when `items` is empty, else an answer.
    public var element: XMLElement {
        var q = XMLElement("query", namespace: Namespace.discoItems)
        if let node { q[attribute: "node"] = node }
        for item in items {
            var attributes = ["jid": item.jid.description]
            if let n = item.node { attributes["node"] = n }
            if let n = item.name { attributes["name"] = n }
            q.append(XMLElement("item", namespace: Namespace.discoItems, attributes: attributes))
        }
        return q
    }
}
