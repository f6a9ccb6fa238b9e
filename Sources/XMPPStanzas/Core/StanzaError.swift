import XMLTree

/// A stanza-level error (RFC 6120 §8.3): `<error type='…'><condition/><text>…</text></error>`.
public struct StanzaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The error type attribute: auth, cancel, continue, modify, wait.
    public var type: String
    /// The defined condition's element name, e.g. `conflict`, `not-allowed`.
    public var condition: String
    /// The human text the server gave, if any.
    public var text: String?

    /// Builds an error value.
    public init(type: String, condition: String, text: String? = nil) {
        self.type = type
        self.condition = condition
        self.text = text
    }

    /// Reads the `<error/>` child of a stanza; a stanza with no usable condition gets
    /// `undefined-condition`, so callers always have something to report.
    public init(stanza: XMLElement) {
        let error = stanza.child("error")
        type = error?[attribute: "type"] ?? "cancel"
        let conditionElement = error?.elements.first { $0.namespace == Namespace.stanzaErrors && $0.name != "text" }
        condition = conditionElement?.name ?? "undefined-condition"
        let t = error?.child("text", namespace: Namespace.stanzaErrors)?.text
        text = (t?.isEmpty ?? true) ? nil : t
    }

    /// The `<error/>` element for this value.
    public var element: XMLElement {
        var e = XMLElement("error", namespace: Namespace.client, attributes: ["type": type])
        e.append(XMLElement(condition, namespace: Namespace.stanzaErrors))
        if let text { e.append(XMLElement("text", namespace: Namespace.stanzaErrors, children: [.text(text)])) }
        return e
    }

    /// `condition` plus the server's text, one line.
    public var description: String {
        text.map { "\(condition): \($0)" } ?? condition
    }
}

extension StanzaError {
    /// The server asks to slow down: any `type='wait'` error, `resource-constraint` or
    /// `policy-violation` (XEP-0077 §3.1: registration throttling). Back off and send again.
    public var isThrottle: Bool {
        type == "wait" || condition == "resource-constraint" || condition == "policy-violation"
    }
}
