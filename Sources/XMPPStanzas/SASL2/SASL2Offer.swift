import XMLTree

/// What a server offers inside `<authentication xmlns='urn:xmpp:sasl:2'>` (XEP-0388 §2.1): the
/// mechanisms, and the inline features that can ride on the authentication — Bind 2
/// (XEP-0386) and FAST (XEP-0484).
public struct SASL2Offer: Sendable, Equatable {
    /// The SASL mechanisms, in the server's order.
    public var mechanisms: [String]
    /// Bind 2 is offered inline.
    public var bind2: Bool
    /// The features Bind 2 can enable inline (e.g. `urn:xmpp:carbons:2`).
    public var bind2Features: [String]
    /// The FAST token mechanisms (e.g. `HT-SHA-256-NONE`); nil when FAST is not offered.
    public var fastMechanisms: [String]?

    /// An offer from its parts.
    public init(mechanisms: [String], bind2: Bool = false, bind2Features: [String] = [], fastMechanisms: [String]? = nil) {
        self.mechanisms = mechanisms
        self.bind2 = bind2
        self.bind2Features = bind2Features
        self.fastMechanisms = fastMechanisms
    }

    /// Reads an `<authentication/>` element; unknown children are ignored.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("authentication", namespace: Namespace.sasl2)
        mechanisms = element.children("mechanism", namespace: Namespace.sasl2)
            .map { $0.text.trimmingWhitespace() }.filter { !$0.isEmpty }
        let inline = element.child("inline", namespace: Namespace.sasl2)
        let bind = inline?.child("bind", namespace: Namespace.bind2)
        bind2 = bind != nil
        bind2Features = bind?.child("inline", namespace: Namespace.bind2)?
            .children("feature", namespace: Namespace.bind2).compactMap { $0[attribute: "var"] } ?? []
        fastMechanisms = inline?.child("fast", namespace: Namespace.fast).map { fast in
            fast.children("mechanism", namespace: Namespace.fast).map { $0.text.trimmingWhitespace() }.filter { !$0.isEmpty }
        }
    }

    /// The element, as a server would send it.
    public var element: XMLElement {
        var authentication = XMLElement("authentication", namespace: Namespace.sasl2,
                                        children: mechanisms.map { .element(Self.text("mechanism", Namespace.sasl2, $0)) })
        var inline = XMLElement("inline", namespace: Namespace.sasl2)
        if bind2 {
            var bind = XMLElement("bind", namespace: Namespace.bind2)
            if !bind2Features.isEmpty {
                bind.append(XMLElement("inline", namespace: Namespace.bind2, children: bind2Features.map {
                    .element(XMLElement("feature", namespace: Namespace.bind2, attributes: ["var": $0]))
                }))
            }
            inline.append(bind)
        }
        if let fastMechanisms {
            inline.append(XMLElement("fast", namespace: Namespace.fast,
                                     children: fastMechanisms.map { .element(Self.text("mechanism", Namespace.fast, $0)) }))
        }
        if !inline.children.isEmpty { authentication.append(inline) }
        return authentication
    }

    static func text(_ name: String, _ namespace: String, _ value: String) -> XMLElement {
        XMLElement(name, namespace: namespace, children: [.text(value)])
    }
}
