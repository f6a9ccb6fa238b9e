import XMLTree

/// The `<stream:features>` a server offers (RFC 6120 §4.3.2), reduced to what the tools act on.
public struct StreamFeatures: Sendable, Equatable {
    /// STARTTLS is offered.
    public var startTLS: Bool
    /// STARTTLS is offered and marked `<required/>`.
    public var startTLSRequired: Bool
    /// SASL mechanism names, in the server's order.
    public var mechanisms: [String]
    /// XEP-0440 channel-binding types the server says it supports, if it says.
    public var channelBindingTypes: [String]?
    /// XEP-0388 SASL2, with its mechanisms and inline features, when offered.
    public var sasl2: SASL2Offer?
    /// XEP-0077 in-band registration is advertised.
    public var registration: Bool
    /// Resource binding is offered (after authentication).
    public var bind: Bool
    /// Legacy session establishment is offered and not optional.
    public var sessionRequired: Bool
    /// XEP-0237 roster versioning is advertised.
    public var rosterVersioning: Bool

    /// Reads a features element; unknown children are ignored.
    public init(element: XMLElement) {
        let tls = element.child("starttls", namespace: Namespace.tls)
        startTLS = tls != nil
        startTLSRequired = tls?.child("required", namespace: Namespace.tls) != nil
        mechanisms = element.child("mechanisms", namespace: Namespace.sasl)?
            .children("mechanism", namespace: Namespace.sasl)
            .map { $0.text.trimmingWhitespace() }
            .filter { !$0.isEmpty } ?? []
        channelBindingTypes = element.child("sasl-channel-binding", namespace: Namespace.saslChannelBinding)?
            .children("channel-binding", namespace: Namespace.saslChannelBinding)
            .compactMap { $0[attribute: "type"] }
        sasl2 = element.child("authentication", namespace: Namespace.sasl2).flatMap { try? SASL2Offer(element: $0) }
        registration = element.child("register", namespace: Namespace.registerFeature) != nil
        bind = element.child("bind", namespace: Namespace.bind) != nil
        let session = element.child("session", namespace: Namespace.session)
        sessionRequired = session != nil && session?.child("optional", namespace: Namespace.session) == nil
        rosterVersioning = element.child("ver", namespace: Namespace.rosterVersioning) != nil
    }

    /// True for `<stream:features>` elements.
    public static func matches(_ element: XMLElement) -> Bool {
        element.name == "features" && element.namespace == Namespace.streams
    }
}
