import XMLTree

/// A XEP-0030 `<query xmlns='http://jabber.org/protocol/disco#info'/>`, as far as the tools ask:
/// the features an entity offers (identities are not read).
public struct DiscoInfo: Sendable, Equatable {
    /// The `var` of each `<feature/>`, in order.
    public var features: [String]

    /// Builds a value.
    public init(features: [String] = []) { self.features = features }

    /// Reads a disco#info query; features without `var` are skipped.
    public init(element: XMLElement) throws(StanzaParseError) {
        guard element.name == "query", element.namespace == Namespace.discoInfo else {
            throw .unexpectedElement(expected: "query", got: element.name)
        }
        features = element.children("feature", namespace: Namespace.discoInfo).compactMap { $0[attribute: "var"] }
    }

    /// The empty request.
    public static var request: XMLElement { XMLElement("query", namespace: Namespace.discoInfo) }
}
