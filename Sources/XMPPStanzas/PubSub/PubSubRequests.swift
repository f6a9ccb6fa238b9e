import XMLTree

/// XEP-0060 §7.1 publish: `<pubsub><publish node='…'><item/></publish><publish-options/></pubsub>`.
public struct PubSubPublish: Sendable, Equatable {
    /// The node, e.g. `urn:xmpp:avatar:metadata`.
    public var node: String
    /// The item to publish.
    public var item: PubSubItem
    /// Node configuration the publish requires (§7.1.5), e.g. `pubsub#access_model: open`; nil sends none.
    public var options: [String: String]?

    /// Builds a publish request.
    public init(node: String, item: PubSubItem, options: [String: String]? = nil) {
        self.node = node
        self.item = item
        self.options = options
    }

    /// Reads the `<pubsub/>` payload of a publish request.
    public init(element: XMLElement) throws(StanzaParseError) {
        let (publish, node) = try PubSubPayload.request("publish", in: element, namespace: Namespace.pubsub)
        self.node = node
        let items = publish.children("item", namespace: Namespace.pubsub)
        guard items.count == 1 else { throw .invalidContent("a publish carries exactly one <item/>, got \(items.count)") }
        item = try PubSubItem(element: items[0])
        if let form = element.child("publish-options", namespace: Namespace.pubsub)?.child("x", namespace: Namespace.dataForms) {
            options = try PubSubForm.fields(of: form, formType: Namespace.pubsubPublishOptions)
        } else {
            options = nil
        }
    }

    /// The `<pubsub/>` element to send in an IQ set.
    public var element: XMLElement {
        var publish = XMLElement("publish", namespace: Namespace.pubsub, attributes: ["node": node])
        publish.append(item.element())
        var pubsub = XMLElement("pubsub", namespace: Namespace.pubsub, children: [.element(publish)])
        if let options {
            pubsub.append(XMLElement("publish-options", namespace: Namespace.pubsub, children: [
                .element(PubSubForm.submit(formType: Namespace.pubsubPublishOptions, fields: options)),
            ]))
        }
        return pubsub
    }
}

/// XEP-0060 §6.5 retrieve items: the request (`max_items`, or item ids) and the result share
/// this shape: `<pubsub><items node='…'><item/>…</items></pubsub>`.
public struct PubSubItems: Sendable, Equatable {
    /// Most items read from one result.
    public static let maxItems = 256

    /// The node.
    public var node: String
    /// In a request: the ids asked for (payload nil); in a result: the items.
    public var items: [PubSubItem]
    /// In a request: ask for only the newest N items (§6.5.7).
    public var maxItems: Int?

    /// Builds a request or result.
    public init(node: String, items: [PubSubItem] = [], maxItems: Int? = nil) {
        self.node = node
        self.items = items
        self.maxItems = maxItems
    }

    /// Reads the `<pubsub/>` payload of an items request or result.
    public init(element: XMLElement) throws(StanzaParseError) {
        let (items, node) = try PubSubPayload.request("items", in: element, namespace: Namespace.pubsub)
        self.node = node
        if let text = items[attribute: "max_items"] {
            guard let n = Int(text), n > 0 else { throw .invalidAttribute(element: "items", attribute: "max_items", value: text) }
            maxItems = n
        }
        let children = items.children("item", namespace: Namespace.pubsub)
        guard children.count <= Self.maxItems else { throw .invalidContent("more than \(Self.maxItems) items in one result") }
        var parsed: [PubSubItem] = []
        for child in children { parsed.append(try PubSubItem(element: child)) }
        self.items = parsed
    }

    /// The `<pubsub/>` element.
    public var element: XMLElement {
        var items = XMLElement("items", namespace: Namespace.pubsub, attributes: ["node": node])
        if let maxItems { items[attribute: "max_items"] = String(maxItems) }
        for item in self.items { items.append(item.element()) }
        return XMLElement("pubsub", namespace: Namespace.pubsub, children: [.element(items)])
    }
}

/// XEP-0060 §7.2 retract: `<pubsub><retract node='…' notify='true'><item id='…'/></retract></pubsub>`.
public struct PubSubRetract: Sendable, Equatable {
    /// The node.
    public var node: String
    /// The ids to delete.
    public var ids: [String]
    /// Ask the service to notify subscribers (§7.2.2.1).
    public var notify: Bool

    /// Builds a retract request.
    public init(node: String, ids: [String], notify: Bool = true) {
        self.node = node
        self.ids = ids
        self.notify = notify
    }

    /// Reads the `<pubsub/>` payload of a retract request.
    public init(element: XMLElement) throws(StanzaParseError) {
        let (retract, node) = try PubSubPayload.request("retract", in: element, namespace: Namespace.pubsub)
        self.node = node
        notify = ["true", "1"].contains(retract[attribute: "notify"] ?? "")
        ids = retract.children("item", namespace: Namespace.pubsub).compactMap { $0[attribute: "id"] }
        guard !ids.isEmpty else { throw .missingChild(element: "retract", child: "item") }
    }

    /// The `<pubsub/>` element.
    public var element: XMLElement {
        var retract = XMLElement("retract", namespace: Namespace.pubsub, attributes: ["node": node])
        if notify { retract[attribute: "notify"] = "true" }
        for id in ids { retract.append(XMLElement("item", namespace: Namespace.pubsub, attributes: ["id": id])) }
        return XMLElement("pubsub", namespace: Namespace.pubsub, children: [.element(retract)])
    }
}

/// XEP-0060 §8.2.4 submit a node configuration (owner):
/// `<pubsub xmlns='…#owner'><configure node='…'><x type='submit'/></configure></pubsub>`.
public struct PubSubConfigure: Sendable, Equatable {
    /// The node.
    public var node: String
    /// The fields to set, e.g. `pubsub#access_model: open`.
    public var fields: [String: String]

    /// Builds a configure request.
    public init(node: String, fields: [String: String]) {
        self.node = node
        self.fields = fields
    }

    /// Reads the `<pubsub/>` payload of a configure submission.
    public init(element: XMLElement) throws(StanzaParseError) {
        let (configure, node) = try PubSubPayload.request("configure", in: element, namespace: Namespace.pubsubOwner)
        self.node = node
        guard let form = configure.child("x", namespace: Namespace.dataForms) else {
            throw .missingChild(element: "configure", child: "x")
        }
        fields = try PubSubForm.fields(of: form, formType: Namespace.pubsubNodeConfig)
    }

    /// The `<pubsub/>` element.
    public var element: XMLElement {
        let configure = XMLElement("configure", namespace: Namespace.pubsubOwner, attributes: ["node": node], children: [
            .element(PubSubForm.submit(formType: Namespace.pubsubNodeConfig, fields: fields)),
        ])
        return XMLElement("pubsub", namespace: Namespace.pubsubOwner, children: [.element(configure)])
    }
}

/// What every pubsub request payload starts with (XEP-0060 §7, §8).
enum PubSubPayload {
    /// The `<pubsub xmlns='namespace'/>` payload's `<name/>` child (`publish`, `items`, …) and the
    /// non-empty `node` it names.
    static func request(_ name: String, in element: XMLElement, namespace: String)
        throws(StanzaParseError) -> (element: XMLElement, node: String) {
        try element.expect("pubsub", namespace: namespace)
        guard let request = element.child(name, namespace: namespace) else {
            throw .missingChild(element: "pubsub", child: name)
        }
        return (request, try request.required("node", nonEmpty: true))
    }
}
