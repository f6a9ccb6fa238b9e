/// An XML element with its namespace resolved.
///
/// Values compare structurally: name, namespace, attributes in order, children in order.
/// The parser never produces two adjacent text children or an empty text child, and
/// `append(text:)` keeps it that way, so a serialize → parse round trip gives an equal value.
public struct XMLElement: Sendable, Equatable, Hashable {
    /// The local name, e.g. `iq`, `features`.
    public var name: String
    /// The resolved namespace URI; nil only if no namespace is in scope.
    public var namespace: String?
    /// Attributes in document order; namespace declarations are not included.
    public var attributes: [XMLAttribute]
    /// Child nodes in document order.
    public var children: [XMLNode]

    /// Creates an element; `attributes` are stored sorted by name so output is deterministic.
    public init(
        _ name: String, namespace: String? = nil, attributes: [String: String] = [:], children: [XMLNode] = []
    ) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes.sorted { $0.key < $1.key }.map { XMLAttribute(name: $0.key, value: $0.value) }
        self.children = children
    }

    /// Creates an element with attributes in the given order.
    public init(_ name: String, namespace: String? = nil, attributes: [XMLAttribute], children: [XMLNode] = []) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.children = children
    }

    /// The value of the first attribute with this name (e.g. `type`, `xml:lang`); setting nil removes it,
    /// setting a value replaces it in place or appends it.
    public subscript(attribute name: String) -> String? {
        get { attributes.first { $0.name == name }?.value }
        set {
            if let index = attributes.firstIndex(where: { $0.name == name }) {
                if let newValue {
                    attributes[index].value = newValue
                } else {
                    attributes.removeAll { $0.name == name }
                }
            } else if let newValue {
                attributes.append(XMLAttribute(name: name, value: newValue))
            }
        }
    }

    /// The first child element with this local name, in `namespace` (nil matches any namespace).
    public func child(_ name: String, namespace: String? = nil) -> XMLElement? {
        for case .element(let element) in children
        where element.name == name && (namespace == nil || element.namespace == namespace) {
            return element
        }
        return nil
    }

    /// All child elements with this local name, in `namespace` (nil matches any namespace).
    public func children(_ name: String, namespace: String? = nil) -> [XMLElement] {
        elements.filter { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    /// The child elements, skipping text.
    public var elements: [XMLElement] {
        children.compactMap(\.element)
    }

    /// The direct text children concatenated (not the text of descendants).
    public var text: String {
        var result = ""
        for case .text(let text) in children {
            result += text
        }
        return result
    }

    /// Appends a child element.
    public mutating func append(_ element: XMLElement) {
        children.append(.element(element))
    }

    /// Appends character data, merging it into a preceding text child; empty text is ignored.
    public mutating func append(text: String) {
        guard !text.isEmpty else { return }
        if case .text(let previous)? = children.last {
            children[children.count - 1] = .text(previous + text)
        } else {
            children.append(.text(text))
        }
    }
}
