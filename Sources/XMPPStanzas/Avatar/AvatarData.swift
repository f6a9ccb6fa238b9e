import XMLTree

/// XEP-0084 §4.1 avatar data: `<data xmlns='urn:xmpp:avatar:data'>BASE64</data>`, the
/// image/png bytes of one avatar, published as an item of the `urn:xmpp:avatar:data` node.
///
/// The Base64 text is kept as received; decoding (which must accept line feeds, §4.1) belongs
/// to the layer that owns the codec.
public struct AvatarData: Sendable, Equatable {
    /// Largest Base64 text accepted, in UTF-8 bytes: far above any sane avatar, below the
    /// stream's stanza limit.
    public static let maxBase64Bytes = 1 << 20

    /// The Base64 text of the image bytes (RFC 4648 §4), whitespace included if the sender added any.
    public var base64: String

    /// Builds a payload from Base64 text.
    public init(base64: String) {
        self.base64 = base64
    }

    /// Reads a `<data/>` element.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("data", namespace: Namespace.avatarData)
        guard element.elements.isEmpty else {
            throw .invalidContent("avatar <data/> must hold only Base64 text")
        }
        let text = element.text
        guard text.utf8.count <= Self.maxBase64Bytes else {
            throw .invalidContent("avatar <data/> is larger than \(Self.maxBase64Bytes) bytes")
        }
        base64 = text
    }

    /// The Base64 text without the whitespace XEP-0084 tells receivers to accept.
    public var compactBase64: String {
        String(base64.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })
    }

    /// The element to publish.
    public var element: XMLElement {
        XMLElement("data", namespace: Namespace.avatarData, children: base64.isEmpty ? [] : [.text(base64)])
    }
}
