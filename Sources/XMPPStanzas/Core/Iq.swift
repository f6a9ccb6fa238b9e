import XMLTree

/// An `<iq/>` stanza (RFC 6120 §8.2.3): a request or its reply, matched by `id`.
public struct Iq: Sendable, Equatable {
    /// The four IQ types.
    public enum Kind: String, Sendable { case get, set, result, error }

    /// get, set, result or error.
    public var type: Kind
    /// Matches a reply to its request.
    public var id: String
    /// Sender, when the server stamped one.
    public var from: JID?
    /// Addressee; nil means the account's own server or bare JID.
    public var to: JID?
    /// The single payload child, if any (for errors, the echoed request payload may be here too).
    public var payload: XMLElement?
    /// The error, for `type='error'`.
    public var error: StanzaError?

    /// Builds an IQ.
    public init(type: Kind, id: String, to: JID? = nil, from: JID? = nil, payload: XMLElement? = nil) {
        self.type = type
        self.id = id
        self.to = to
        self.from = from
        self.payload = payload
        self.error = nil
    }

    /// Reads an `<iq/>` element.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("iq")
        let typeText = try element.required("type")
        guard let kind = Kind(rawValue: typeText) else {
            throw .invalidAttribute(element: "iq", attribute: "type", value: typeText)
        }
        type = kind
        id = try element.required("id")
        from = try Iq.address(element, "from")
        to = try Iq.address(element, "to")
        payload = element.elements.first { $0.name != "error" }
        error = kind == .error ? StanzaError(stanza: element) : nil
    }

    /// The element to send.
    public var element: XMLElement {
        var e = XMLElement("iq", namespace: Namespace.client, attributes: ["type": type.rawValue, "id": id])
        if let to { e[attribute: "to"] = to.description }
        if let from { e[attribute: "from"] = from.description }
        if let payload { e.append(payload) }
        if let error { e.append(error.element) }
        return e
    }

    static func address(_ element: XMLElement, _ attribute: String) throws(StanzaParseError) -> JID? {
        guard let text = element[attribute: attribute] else { return nil }
        do { return try JID(text) } catch { throw .invalidJID(attribute: attribute, value: text, error) }
    }
}
