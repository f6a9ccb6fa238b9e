import XMLTree

/// XEP-0084 §4.2 avatar metadata: `<metadata xmlns='urn:xmpp:avatar:metadata'>` with one
/// `<info/>` per format of the same image, optional `<pointer/>`s, or nothing at all, which
/// means the user disabled the avatar (§4.5; the deprecated `<stop/>` child means the same).
public struct AvatarMetadata: Sendable, Equatable {
    /// One format of the avatar (§4.2.1).
    public struct Info: Sendable, Equatable {
        /// Size of the image data in bytes (REQUIRED).
        public var bytes: Int
        /// Lowercase hex SHA-1 of the image data (REQUIRED); the data node's item id.
        public var id: String
        /// Content type, e.g. `image/png` (REQUIRED).
        public var type: String
        /// Width in pixels (RECOMMENDED).
        public var width: Int?
        /// Height in pixels (RECOMMENDED).
        public var height: Int?
        /// HTTP(S) URL where this format is hosted instead of the data node (OPTIONAL).
        public var url: String?

        /// Builds an info.
        public init(bytes: Int, id: String, type: String, width: Int? = nil, height: Int? = nil, url: String? = nil) {
            self.bytes = bytes
            self.id = id
            self.type = type
            self.width = width
            self.height = height
            self.url = url
        }

        /// Reads an `<info/>` element.
        public init(element: XMLElement) throws(StanzaParseError) {
            let bytesText = try element.required("bytes")
            guard let bytes = UInt32(bytesText) else {
                throw .invalidAttribute(element: "info", attribute: "bytes", value: bytesText)
            }
            self.bytes = Int(bytes)
            id = try element.required("id", nonEmpty: true)
            type = try element.required("type", nonEmpty: true)
            width = try Info.dimension(element, "width")
            height = try Info.dimension(element, "height")
            url = element[attribute: "url"]
        }

        /// The `<info/>` element.
        public var element: XMLElement {
            var attributes = ["bytes": String(bytes), "id": id, "type": type]
            if let width { attributes["width"] = String(width) }
            if let height { attributes["height"] = String(height) }
            if let url { attributes["url"] = url }
            return XMLElement("info", namespace: Namespace.avatarMetadata, attributes: attributes)
        }

        /// Whether this format's bytes are in the data node: no URL (§4.2.1; image/png is
        /// required there, other types may be too, e.g. a JPEG another client published).
        public var isInDataNode: Bool { url == nil }

        /// Width and height are xs:unsignedShort in the schema.
        private static func dimension(_ element: XMLElement, _ name: String) throws(StanzaParseError) -> Int? {
            guard let text = element[attribute: name] else { return nil }
            guard let value = UInt16(text) else { throw .invalidAttribute(element: "info", attribute: name, value: text) }
            return Int(value)
        }
    }

    /// Most `<info/>` children read; more is an attack, not an avatar.
    public static let maxInfos = 64

    /// The formats, in document order; empty when the avatar is disabled.
    public var infos: [Info]
    /// `<pointer/>` children, kept as they are (their content is application-specific, §4.2.2).
    public var pointers: [XMLElement]

    /// Builds metadata; no infos and no pointers is the "avatar disabled" form.
    public init(infos: [Info] = [], pointers: [XMLElement] = []) {
        self.infos = infos
        self.pointers = pointers
    }

    /// Reads a `<metadata/>` element.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("metadata", namespace: Namespace.avatarMetadata)
        let infoElements = element.children("info", namespace: Namespace.avatarMetadata)
        guard infoElements.count <= Self.maxInfos else {
            throw .invalidContent("avatar metadata lists more than \(Self.maxInfos) formats")
        }
        var infos: [Info] = []
        for child in infoElements { infos.append(try Info(element: child)) }
        self.infos = infos
        pointers = element.children("pointer", namespace: Namespace.avatarMetadata)
    }

    /// The element to publish: infos first, then pointers (the schema's order).
    public var element: XMLElement {
        var e = XMLElement("metadata", namespace: Namespace.avatarMetadata)
        for info in infos { e.append(info.element) }
        for pointer in pointers { e.append(pointer) }
        return e
    }

    /// True for the "avatar disabled" form: no `<info/>` at all.
    public var isDisabled: Bool { infos.isEmpty }

    /// The format to fetch from the data node: image/png (REQUIRED there by §4.2.1) when listed,
    /// else the first other type listed without a URL.
    public var dataNodeInfo: Info? {
        infos.first { $0.isInDataNode && $0.type == "image/png" } ?? infos.first { $0.isInDataNode }
    }
}
