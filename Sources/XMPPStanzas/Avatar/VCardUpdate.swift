import XMLTree

/// XEP-0153 §3 `<x xmlns='vcard-temp:x:update'>` in presence: which vCard photo the sender
/// advertises.
public enum VCardUpdate: Sendable, Equatable {
    /// `<x/>` with no `<photo/>`: the client supports the protocol but is not ready to advertise.
    case notReady
    /// `<photo/>` empty: there is no avatar.
    case noImage
    /// `<photo>HASH</photo>`: the lowercase hex SHA-1 of the vCard's photo bytes.
    case image(hash: String)

    /// Reads an `<x xmlns='vcard-temp:x:update'/>` element.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("x", namespace: Namespace.vcardUpdate)
        guard let photo = element.child("photo", namespace: Namespace.vcardUpdate) else {
            self = .notReady
            return
        }
        let hash = photo.text.trimmingXMLSpace
        guard !hash.isEmpty else {
            self = .noImage
            return
        }
        guard hash.utf8.count == 40, hash.utf8.allSatisfy(VCardUpdate.isHexDigit) else {
            throw .invalidContent("vcard-temp:x:update <photo/> is not a SHA-1 hash: '\(hash.prefix(64))'")
        }
        self = .image(hash: hash.lowercased())
    }

    /// Finds and reads the update child of a `<presence/>`; nil when it has none.
    public init?(presence: XMLElement) throws(StanzaParseError) {
        guard let x = presence.child("x", namespace: Namespace.vcardUpdate) else { return nil }
        try self.init(element: x)
    }

    /// The element to add to presence.
    public var element: XMLElement {
        var x = XMLElement("x", namespace: Namespace.vcardUpdate)
        switch self {
        case .notReady: break
        case .noImage: x.append(XMLElement("photo", namespace: Namespace.vcardUpdate))
        case .image(let hash): x.append(XMLElement("photo", namespace: Namespace.vcardUpdate, children: [.text(hash)]))
        }
        return x
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}

private extension String {
    /// The string without leading and trailing XML whitespace (space, tab, CR, LF).
    var trimmingXMLSpace: String {
        let space: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !space($0) }),
              let last = scalars.lastIndex(where: { !space($0) }) else { return "" }
        return String(scalars[first...last])
    }
}
