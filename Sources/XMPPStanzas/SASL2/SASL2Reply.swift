import XMLTree

/// What the server answers an `<authenticate/>` or `<response/>` with (XEP-0388 §2.3–2.6).
/// Base 64 stays text; the SASL layer decodes it.
public enum SASL2Reply: Sendable, Equatable {
    /// `<challenge/>`: more SASL data for the mechanism.
    case challenge(String)
    /// `<success/>`: authenticated, with what came inline.
    case success(SASL2Success)
    /// `<failure/>`: a SASL condition (RFC 6120 §6.5) and optional text.
    case failure(condition: String, text: String?)
    /// `<continue/>`: the server wants further tasks (e.g. a second factor) first.
    case `continue`(tasks: [String], text: String?)

    /// Reads one of the four elements in the SASL2 namespace.
    public init(element: XMLElement) throws(StanzaParseError) {
        guard element.namespace == Namespace.sasl2 else {
            throw .unexpectedElement(expected: "SASL2 challenge, success, failure or continue", got: element.name)
        }
        let text = element.child("text", namespace: Namespace.sasl2)?.text
        let someText = (text?.isEmpty ?? true) ? nil : text
        switch element.name {
        case "challenge":
            self = .challenge(element.text.trimmingWhitespace())
        case "success":
            self = .success(try SASL2Success(element: element))
        case "failure":
            let condition = element.elements.first { $0.name != "text" && $0.namespace == Namespace.sasl }?.name
                ?? element.elements.first { $0.name != "text" }?.name ?? "not-authorized"
            self = .failure(condition: condition, text: someText)
        case "continue":
            let tasks = element.child("tasks", namespace: Namespace.sasl2)?
                .children("task", namespace: Namespace.sasl2).map { $0.text.trimmingWhitespace() } ?? []
            self = .continue(tasks: tasks, text: someText)
        default:
            throw .unexpectedElement(expected: "SASL2 challenge, success, failure or continue", got: element.name)
        }
    }
}

/// A SASL2 `<success/>` (XEP-0388 §2.5) with the Bind 2 and FAST results inline.
public struct SASL2Success: Sendable, Equatable {
    /// Base 64 additional data (SCRAM's server-final, FAST's responder HMAC); nil when absent.
    public var additionalData: String?
    /// The JID the stream is now authenticated as (a full JID when Bind 2 bound one).
    public var authorizationIdentifier: JID
    /// Bind 2's answer, when Bind 2 was asked for.
    public var bind: Bind2Result?
    /// A new FAST token (asked for, or the server's rotation).
    public var token: FASTToken?

    /// Bind 2's answer inside `<success/>` (XEP-0386 §3).
    public enum Bind2Result: Sendable, Equatable {
        /// `<bound/>`: a resource is bound; the full JID is the authorization identifier.
        case bound
        /// `<failed/>`: authenticated, but no resource; the error says why.
        case failed(StanzaError)
    }

    /// A success from its parts.
    public init(additionalData: String? = nil, authorizationIdentifier: JID, bind: Bind2Result? = nil, token: FASTToken? = nil) {
        self.additionalData = additionalData
        self.authorizationIdentifier = authorizationIdentifier
        self.bind = bind
        self.token = token
    }

    /// Reads `<success/>`.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("success", namespace: Namespace.sasl2)
        additionalData = element.child("additional-data", namespace: Namespace.sasl2)?.text.trimmingWhitespace()
        guard let identifier = element.child("authorization-identifier", namespace: Namespace.sasl2)?.text.trimmingWhitespace() else {
            throw .missingChild(element: "success", child: "authorization-identifier")
        }
        do { authorizationIdentifier = try JID(identifier) } catch {
            throw .invalidJID(attribute: "authorization-identifier", value: identifier, error)
        }
        if element.child("bound", namespace: Namespace.bind2) != nil {
            bind = .bound
        } else if let failed = element.child("failed", namespace: Namespace.bind2) {
            bind = .failed(StanzaError(stanza: failed))
        }
        token = try element.child("token", namespace: Namespace.fast).map { e throws(StanzaParseError) in try FASTToken(element: e) }
    }

    /// The element, as a server would send it.
    public var element: XMLElement {
        var success = XMLElement("success", namespace: Namespace.sasl2)
        if let additionalData { success.append(SASL2Offer.text("additional-data", Namespace.sasl2, additionalData)) }
        success.append(SASL2Offer.text("authorization-identifier", Namespace.sasl2, authorizationIdentifier.description))
        switch bind {
        case .bound: success.append(XMLElement("bound", namespace: Namespace.bind2))
        case .failed(let error):
            success.append(XMLElement("failed", namespace: Namespace.bind2, children: [.element(error.element)]))
        case nil: break
        }
        if let token { success.append(token.element) }
        return success
    }
}

/// A FAST token the server hands out (XEP-0484 §3.2): `<token expiry=… token=…/>`.
public struct FASTToken: Sendable, Equatable {
    /// The secret. Never print it.
    public var secret: String
    /// When it stops working, as the server wrote it (XEP-0082 date-time).
    public var expiry: String

    /// A token from its parts.
    public init(secret: String, expiry: String) {
        self.secret = secret
        self.expiry = expiry
    }

    /// Reads `<token/>`.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("token", namespace: Namespace.fast)
        secret = try element.required("token", nonEmpty: true)
        expiry = try element.required("expiry")
    }

    /// The element.
    public var element: XMLElement {
        XMLElement("token", namespace: Namespace.fast, attributes: ["expiry": expiry, "token": secret])
    }
}
