import XMLTree

/// A `<presence/>` stanza (RFC 6121 §4–§3): availability with show, status and priority, or a
/// subscription request or answer. Children other than show, status, priority, nick and error
/// are kept in `extensions`.
public struct Presence: Sendable, Equatable {
    /// The `type` attribute; an available presence has none.
    public enum Kind: String, Sendable, CaseIterable {
        case unavailable, subscribe, subscribed, unsubscribe, unsubscribed, probe, error
    }

    /// The `<show/>` values (RFC 6121 §4.7.2.1); "online" is the absence of show.
    public enum Show: String, Sendable, CaseIterable {
        case away, chat, dnd, xa
    }

    /// nil for available presence.
    public var type: Kind?
    /// The stanza id, if any.
    public var id: String?
    /// Sender.
    public var from: JID?
    /// Addressee; nil for broadcast presence.
    public var to: JID?
    /// Availability detail of an available presence.
    public var show: Show?
    /// Human-readable status text (the first `<status/>`).
    public var status: String?
    /// Resource priority, -128…127 (RFC 6121 §4.7.2.3); nil means 0.
    public var priority: Int?
    /// XEP-0172 user nickname, as sent with subscription requests.
    public var nick: String?
    /// The error, for `type='error'`.
    public var error: StanzaError?
    /// Other payload children (caps, vCard update, delay…).
    public var extensions: [XMLElement]

    /// Builds a presence.
    public init(type: Kind? = nil, to: JID? = nil, from: JID? = nil, id: String? = nil, show: Show? = nil,
                status: String? = nil, priority: Int? = nil, nick: String? = nil, extensions: [XMLElement] = []) {
        self.type = type
        self.to = to
        self.from = from
        self.id = id
        self.show = show
        self.status = status
        self.priority = priority
        self.nick = nick
        self.error = nil
        self.extensions = extensions
    }

    /// True for available presence (no type).
    public var isAvailable: Bool { type == nil }

    /// Reads a `<presence/>` element.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("presence")
        if let text = element[attribute: "type"] {
            guard let kind = Kind(rawValue: text) else {
                throw .invalidAttribute(element: "presence", attribute: "type", value: text)
            }
            type = kind
        } else {
            type = nil
        }
        id = element[attribute: "id"]
        from = try Iq.address(element, "from")
        to = try Iq.address(element, "to")
        show = nil
        status = nil
        priority = nil
        nick = nil
        error = nil
        extensions = []
        for child in element.elements {
            try read(child, in: element)
        }
    }

    private mutating func read(_ child: XMLElement, in element: XMLElement) throws(StanzaParseError) {
        let inClient = child.namespace == Namespace.client
        switch child.name {
        case "show" where inClient:
            let text = child.text.trimmingWhitespace()
            guard let value = Show(rawValue: text) else {
                throw .invalidContent("<presence/> has an invalid <show>\(text)</show>")
            }
            show = value
        case "status" where inClient:
            if status == nil { status = child.text }
        case "priority" where inClient:
            let text = child.text.trimmingWhitespace()
            guard let value = Int(text), (-128...127).contains(value) else {
                throw .invalidContent("<presence/> has an invalid <priority>\(text)</priority>")
            }
            priority = value
        case "nick" where child.namespace == Namespace.nick:
            nick = child.text
        case "error" where inClient:
            error = StanzaError(stanza: element)
        default:
            extensions.append(child)
        }
    }

    /// The element to send.
    public var element: XMLElement {
        var e = XMLElement("presence", namespace: Namespace.client, attributes: [XMLAttribute]())
        if let id { e[attribute: "id"] = id }
        if let type { e[attribute: "type"] = type.rawValue }
        if let to { e[attribute: "to"] = to.description }
        if let from { e[attribute: "from"] = from.description }
        if let show { e.append(XMLElement("show", namespace: Namespace.client, children: [.text(show.rawValue)])) }
        if let status { e.append(XMLElement("status", namespace: Namespace.client, children: [.text(status)])) }
        if let priority { e.append(XMLElement("priority", namespace: Namespace.client, children: [.text(String(priority))])) }
        if let nick { e.append(XMLElement("nick", namespace: Namespace.nick, children: [.text(nick)])) }
        for x in extensions { e.append(x) }
        if let error { e.append(error.element) }
        return e
    }
}
