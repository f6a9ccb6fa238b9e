/// An XML node: an element or character data.
public enum XMLNode: Sendable, Equatable, Hashable {
    /// A child element.
    case element(XMLElement)
    /// Character data (already unescaped; CDATA sections become text too).
    case text(String)

    /// The element, if this node is one.
    public var element: XMLElement? {
        if case .element(let element) = self { return element }
        return nil
    }

    /// The character data, if this node is text.
    public var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}
