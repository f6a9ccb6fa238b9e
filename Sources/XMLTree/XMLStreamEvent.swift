/// The opening tag of an XML stream (`<stream:stream …>`), which stays open for the whole stream.
public struct XMLStreamHeader: Sendable, Equatable {
    /// The local name, normally `stream`.
    public var name: String
    /// The prefix as written, normally `stream`; nil when unprefixed.
    public var prefix: String?
    /// The resolved namespace of the header element, normally `http://etherx.jabber.org/streams`.
    public var namespace: String?
    /// Attributes in document order (`from`, `to`, `id`, `version`, `xml:lang`), without namespace declarations.
    public var attributes: [XMLAttribute]
    /// The default namespace declared on the header (`jabber:client`); stanzas inherit it.
    public var defaultNamespace: String?

    /// Creates a header; the defaults give `<stream:stream xmlns:stream='http://etherx.jabber.org/streams'>`.
    public init(
        name: String = "stream", prefix: String? = "stream", namespace: String? = "http://etherx.jabber.org/streams",
        attributes: [XMLAttribute] = [], defaultNamespace: String? = nil
    ) {
        self.name = name
        self.prefix = prefix
        self.namespace = namespace
        self.attributes = attributes
        self.defaultNamespace = defaultNamespace
    }

    /// The value of the first attribute with this name; setting nil removes it.
    public subscript(attribute name: String) -> String? {
        get { attributes.first { $0.name == name }?.value }
        set {
            var element = XMLElement(self.name, attributes: attributes)
            element[attribute: name] = newValue
            attributes = element.attributes
        }
    }

    /// The opening tag as text, without XML declaration and never self-closed, e.g.
    /// `<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' to='example.org' version='1.0'>`.
    public func openingTag() -> String {
        var output = "<"
        if let prefix {
            output += prefix + ":"
        }
        output += name
        if let defaultNamespace {
            output += " xmlns='" + XMLEscaping.attribute(defaultNamespace) + "'"
        }
        if let namespace {
            if let prefix {
                output += " xmlns:" + prefix + "='" + XMLEscaping.attribute(namespace) + "'"
            } else if namespace != defaultNamespace {
                output += " xmlns='" + XMLEscaping.attribute(namespace) + "'"
            }
        }
        for attribute in attributes {
            output += " " + attribute.name + "='" + XMLEscaping.attribute(attribute.value) + "'"
        }
        return output + ">"
    }
}

/// One thing that happened on an XML stream.
public enum XMLStreamEvent: Sendable, Equatable {
    /// The stream header (depth 0) was opened.
    case streamOpened(XMLStreamHeader)
    /// A top-level element (depth 1: a stanza, stream features, a stream error…) was completed.
    case element(XMLElement)
    /// The stream header was closed (`</stream:stream>`).
    case streamClosed
}
