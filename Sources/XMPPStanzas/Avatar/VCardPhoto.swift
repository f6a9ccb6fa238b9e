import XMLTree

/// XEP-0153 §3.1 (XEP-0054 `PHOTO`): the avatar inside a vcard-temp card, read from and written
/// into the raw `<vCard/>` element so that every other field, known or not, survives a merge.
public struct VCardPhoto: Sendable, Equatable {
    /// `TYPE`: the content type, e.g. `image/png` (a hint, XEP-0153 §5).
    public var type: String?
    /// `BINVAL`: the image as Base64 text, whitespace allowed (XEP-0153 §3.5).
    public var base64: String?
    /// `EXTVAL`: a URI of the image instead of the bytes (discouraged by XEP-0153 §3.4).
    public var externalURL: String?

    /// Builds a photo.
    public init(type: String? = nil, base64: String? = nil, externalURL: String? = nil) {
        self.type = type
        self.base64 = base64
        self.externalURL = externalURL
    }

    /// Reads a `<PHOTO/>` element.
    public init(element: XMLElement) throws(StanzaParseError) {
        try element.expect("PHOTO", namespace: Namespace.vcardTemp)
        type = VCardPhoto.text(element, "TYPE")
        base64 = VCardPhoto.text(element, "BINVAL")
        externalURL = VCardPhoto.text(element, "EXTVAL")
        if let base64, base64.utf8.count > AvatarData.maxBase64Bytes {
            throw .invalidContent("vCard PHOTO is larger than \(AvatarData.maxBase64Bytes) bytes")
        }
    }

    /// The `<PHOTO/>` element.
    public var element: XMLElement {
        var e = XMLElement("PHOTO", namespace: Namespace.vcardTemp)
        if let type { e.append(XMLElement("TYPE", namespace: Namespace.vcardTemp, children: [.text(type)])) }
        if let base64 { e.append(XMLElement("BINVAL", namespace: Namespace.vcardTemp, children: [.text(base64)])) }
        if let externalURL { e.append(XMLElement("EXTVAL", namespace: Namespace.vcardTemp, children: [.text(externalURL)])) }
        return e
    }

    /// The `BINVAL` text without whitespace; nil when there is no embedded image.
    public var compactBase64: String? {
        guard let base64 else { return nil }
        let compact = String(base64.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })
        return compact.isEmpty ? nil : compact
    }

    /// The photo of a `<vCard xmlns='vcard-temp'/>` element, nil when it has none.
    public static func find(in vcard: XMLElement) throws(StanzaParseError) -> VCardPhoto? {
        try vcard.expect("vCard", namespace: Namespace.vcardTemp)
        return try vcard.child("PHOTO", namespace: Namespace.vcardTemp).map { p throws(StanzaParseError) in try VCardPhoto(element: p) }
    }

    /// `vcard` with its photo replaced by `photo` (nil removes it). Only `PHOTO` children change:
    /// the first keeps its place, any further ones are dropped, every other child stays as it was.
    public static func replacing(in vcard: XMLElement, with photo: VCardPhoto?) throws(StanzaParseError) -> XMLElement {
        try vcard.expect("vCard", namespace: Namespace.vcardTemp)
        var result = vcard
        result.children = []
        var placed = false
        for child in vcard.children {
            switch child {
            case .element(let e) where e.name == "PHOTO" && e.namespace == Namespace.vcardTemp:
                if !placed, let photo { result.append(photo.element) }
                placed = true
            case .element(let e):
                result.append(e)
            case .text(let t):
                result.append(text: t)
            }
        }
        if !placed, let photo { result.append(photo.element) }
        return result
    }

    private static func text(_ element: XMLElement, _ name: String) -> String? {
        element.child(name, namespace: Namespace.vcardTemp).map(\.text)
    }
}
