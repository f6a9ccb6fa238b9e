/// An XML attribute as written on an element (namespace declarations are never attributes here).
///
/// Unprefixed attributes have no namespace. `xml:lang` and other `xml:` attributes keep their
/// prefix in `name` and have `namespace == nil` (the `xml` prefix is bound implicitly). Any other
/// prefixed attribute keeps `prefix:local` in `name` and carries its resolved URI in `namespace`,
/// so the writer can declare the prefix again.
public struct XMLAttribute: Sendable, Equatable, Hashable {
    /// The attribute name, e.g. `to`, `xml:lang`.
    public var name: String
    /// The unescaped value.
    public var value: String
    /// The namespace URI of a prefixed attribute other than `xml:`; nil otherwise.
    public var namespace: String?

    /// Creates an attribute.
    public init(name: String, value: String, namespace: String? = nil) {
        self.name = name
        self.value = value
        self.namespace = namespace
    }
}
