import XMLTree

/// The client's `<authenticate/>` (XEP-0388 §2.2) with what it asks for inline: Bind 2
/// (XEP-0386 §3), a FAST token (XEP-0484 §3.2) or FAST authentication with a token (§3.3).
/// Base 64 stays text here; the SASL layer encodes and decodes.
public struct SASL2Authenticate: Sendable, Equatable {
    /// The mechanism, e.g. `SCRAM-SHA-256-PLUS` or `HT-SHA-256-EXPR`.
    public var mechanism: String
    /// The base 64 initial response; nil sends none.
    public var initialResponse: String?
    /// `<user-agent id=…>`: a stable UUID for this client installation (FAST tokens are tied to it).
    public var userAgentID: String?
    /// `<software/>` in the user agent.
    public var software: String?
    /// `<device/>` in the user agent.
    public var device: String?
    /// Bind 2 with this `<tag/>`; nil asks for no Bind 2.
    public var bindTag: String?
    /// Ask for a FAST token for this mechanism (`<request-token mechanism=…/>`).
    public var requestToken: String?
    /// Authenticating with a FAST token: `<fast/>`, with `invalidate='true'` to end the token.
    public var fast: FASTUsage?

    /// The `<fast/>` element of a token authentication.
    public struct FASTUsage: Sendable, Equatable {
        /// Ask the server to invalidate the token after this authentication (log-out).
        public var invalidate: Bool
        /// Builds it.
        public init(invalidate: Bool = false) { self.invalidate = invalidate }
    }

    /// A request from its parts.
    public init(mechanism: String, initialResponse: String? = nil, userAgentID: String? = nil, software: String? = nil,
                device: String? = nil, bindTag: String? = nil, requestToken: String? = nil, fast: FASTUsage? = nil) {
        self.mechanism = mechanism
        self.initialResponse = initialResponse
        self.userAgentID = userAgentID
        self.software = software
        self.device = device
        self.bindTag = bindTag
        self.requestToken = requestToken
        self.fast = fast
    }

    /// Reads an `<authenticate/>` (for tests and scripted peers).
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("authenticate", namespace: Namespace.sasl2)
        mechanism = try element.required("mechanism")
        initialResponse = element.child("initial-response", namespace: Namespace.sasl2)?.text.trimmingWhitespace()
        let agent = element.child("user-agent", namespace: Namespace.sasl2)
        userAgentID = agent?[attribute: "id"]
        software = agent?.child("software", namespace: Namespace.sasl2)?.text
        device = agent?.child("device", namespace: Namespace.sasl2)?.text
        bindTag = element.child("bind", namespace: Namespace.bind2).map { $0.child("tag", namespace: Namespace.bind2)?.text ?? "" }
        if let request = element.child("request-token", namespace: Namespace.fast) {
            requestToken = try request.required("mechanism")
        }
        fast = element.child("fast", namespace: Namespace.fast).map {
            FASTUsage(invalidate: ["true", "1"].contains($0[attribute: "invalidate"] ?? "false"))
        }
    }

    /// The element to send.
    public var element: XMLElement {
        var authenticate = XMLElement("authenticate", namespace: Namespace.sasl2, attributes: ["mechanism": mechanism])
        if let initialResponse {
            authenticate.append(SASL2Offer.text("initial-response", Namespace.sasl2, initialResponse.isEmpty ? "=" : initialResponse))
        }
        if userAgentID != nil || software != nil || device != nil {
            var agent = XMLElement("user-agent", namespace: Namespace.sasl2, attributes: userAgentID.map { ["id": $0] } ?? [:])
            if let software { agent.append(SASL2Offer.text("software", Namespace.sasl2, software)) }
            if let device { agent.append(SASL2Offer.text("device", Namespace.sasl2, device)) }
            authenticate.append(agent)
        }
        if let bindTag {
            var bind = XMLElement("bind", namespace: Namespace.bind2)
            if !bindTag.isEmpty { bind.append(SASL2Offer.text("tag", Namespace.bind2, bindTag)) }
            authenticate.append(bind)
        }
        if let requestToken {
            authenticate.append(XMLElement("request-token", namespace: Namespace.fast, attributes: ["mechanism": requestToken]))
        }
        if let fast {
            authenticate.append(XMLElement("fast", namespace: Namespace.fast, attributes: fast.invalidate ? ["invalidate": "true"] : [:]))
        }
        return authenticate
    }
}
