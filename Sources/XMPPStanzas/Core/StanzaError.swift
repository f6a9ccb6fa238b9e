import XMLTree

/// A stanza-level error (RFC 6120 §8.3): `<error type='…'><condition/><text>…</text></error>`.
public struct StanzaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The error type attribute: auth, cancel, continue, modify, wait.
    public var type: String
    /// The defined condition (RFC 6120 §8.3.3), e.g. `.conflict`, `.notAllowed`.
    public var condition: Condition
    /// The human text the server gave, if any.
    public var text: String?

    /// Builds an error value.
    public init(type: String, condition: Condition, text: String? = nil) {
        self.type = type
        self.condition = condition
        self.text = text
    }

    /// Reads the `<error/>` child of a stanza; a stanza with no defined condition (none, or a
    /// name RFC 6120 does not define) gets `undefined-condition`, so callers always have one.
    public init(stanza: XMLElement) {
        let error = stanza.child("error")
        type = error?[attribute: "type"] ?? "cancel"
        let conditionElement = error?.elements.first { $0.namespace == Namespace.stanzaErrors && $0.name != "text" }
        condition = conditionElement.flatMap { Condition(rawValue: $0.name) } ?? .undefinedCondition
        let t = error?.child("text", namespace: Namespace.stanzaErrors)?.text
        text = (t?.isEmpty ?? true) ? nil : t
    }

    /// The `<error/>` element for this value.
    public var element: XMLElement {
        var e = XMLElement("error", namespace: Namespace.client, attributes: ["type": type])
        e.append(XMLElement(condition.rawValue, namespace: Namespace.stanzaErrors))
        if let text { e.append(XMLElement("text", namespace: Namespace.stanzaErrors, children: [.text(text)])) }
        return e
    }

    /// `condition` plus the server's text, one line.
    public var description: String {
        text.map { "\(condition): \($0)" } ?? condition.rawValue
    }
}

extension StanzaError {
    /// The server asks to slow down: any `type='wait'` error, `resource-constraint` or
    /// `policy-violation` (XEP-0077 §3.1: registration throttling). Back off and send again.
    public var isThrottle: Bool {
        type == "wait" || condition == .resourceConstraint || condition == .policyViolation
    }

    /// The defined stanza error conditions of RFC 6120 §8.3.3, by their element names.
    public enum Condition: String, Sendable, CaseIterable, CustomStringConvertible {
        case badRequest = "bad-request"
        case conflict
        case featureNotImplemented = "feature-not-implemented"
        case forbidden
        case gone
        case internalServerError = "internal-server-error"
        case itemNotFound = "item-not-found"
        case jidMalformed = "jid-malformed"
        case notAcceptable = "not-acceptable"
        case notAllowed = "not-allowed"
        case notAuthorized = "not-authorized"
        case policyViolation = "policy-violation"
        case recipientUnavailable = "recipient-unavailable"
        case redirect
        case registrationRequired = "registration-required"
        case remoteServerNotFound = "remote-server-not-found"
        case remoteServerTimeout = "remote-server-timeout"
        case resourceConstraint = "resource-constraint"
        case serviceUnavailable = "service-unavailable"
        case subscriptionRequired = "subscription-required"
        case undefinedCondition = "undefined-condition"
        case unexpectedRequest = "unexpected-request"

        /// The element name, as the server sent it.
        public var description: String { rawValue }
    }
}
