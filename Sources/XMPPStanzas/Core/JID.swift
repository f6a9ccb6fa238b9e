/// An XMPP address (RFC 7622): `localpart@domainpart/resourcepart`.
///
/// Parsing is total: every failure is a `JIDError` naming what was wrong. Each part is held in
/// its canonical form, so equal addresses are equal values with equal text: the localpart
/// enforced with PRECIS UsernameCaseMapped (RFC 8265 §3.3: width-mapped, lowercased, NFC), the
/// domain with UTS #46 and IDNA2008 (lowercase, U-labels, no trailing dot), the resource with
/// PRECIS OpaqueString (RFC 8265 §4.2: non-ASCII spaces become U+0020, NFC; case kept).
public struct JID: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    /// The part before `@`, if any.
    public let local: String?
    /// The server part; never empty.
    public let domain: String
    /// The part after `/`, if any.
    public let resource: String?

    /// Largest size of each part in its canonical form, in UTF-8 bytes (RFC 7622 §3.2–3.4).
    public static let maxPartBytes = 1023

    /// Builds a JID from parts, validating each.
    public init(local: String?, domain: String, resource: String? = nil) throws(JIDError) {
        self.local = try local.map { l throws(JIDError) in try JID.validLocal(l) }
        self.domain = try JID.validDomain(domain)
        self.resource = try resource.map { r throws(JIDError) in try JID.validResource(r) }
    }

    /// Parses `text` as a JID.
    ///
    /// The separators are found among Unicode scalars, not characters (RFC 7622 §3.1): a
    /// combining mark after '@' or '/' must not hide the separator inside one grapheme cluster.
    public init(_ text: String) throws(JIDError) {
        if let jid = JID.plainBare(text) {
            self = jid
            return
        }
        try self.init(parsing: text)
    }

    /// The general parse, which `init(_:)` skips for plain bare JIDs.
    init(parsing text: String) throws(JIDError) {
        // Searched in the UTF-8 bytes: '/' and '@' are ASCII, and no byte of a multi-byte scalar
        // is ASCII, so the same positions as among scalars, without decoding every scalar.
        let bytes = text.utf8
        var end = bytes.endIndex
        var resource: String?
        // The resource starts at the first '/', and may itself contain '@' or '/'.
        if let slash = bytes.firstIndex(of: UInt8(ascii: "/")) {
            resource = String(text[bytes.index(after: slash)...])
            end = slash
        }
        var local: String?
        var start = bytes.startIndex
        if let at = bytes[..<end].firstIndex(of: UInt8(ascii: "@")) {
            local = String(text[..<at])
            start = bytes.index(after: at)
        }
        try self.init(local: local, domain: String(text[start..<end]), resource: resource)
    }

    /// The JID without its resource.
    public var bare: JID {
        // Parts were validated already; rebuilding cannot fail, so copy them directly.
        JID(unchecked: local, domain, nil)
    }

    /// The domain with A-labels (`xn--…`), as DNS look-ups and TLS server names need it.
    public var asciiDomain: String { JID.asciiForm(ofDomain: domain) }

    /// True when there is no resource.
    public var isBare: Bool { resource == nil }

    /// This JID with another resource.
    public func with(resource: String?) throws(JIDError) -> JID {
        JID(unchecked: local, domain, try resource.map { r throws(JIDError) in try JID.validResource(r) })
    }

    /// The canonical text form.
    public var description: String {
        var s = ""
        if let local { s += local + "@" }
        s += domain
        if let resource { s += "/" + resource }
        return s
    }

    /// Orders by text form, so lists print stably.
    public static func < (a: JID, b: JID) -> Bool { a.description < b.description }

    /// `text` as a JID when it is bare with a non-empty lower-case ASCII local part (or none) and
    /// an LDH domain, the parts the general parse returns unchanged; found in one pass over the
    /// bytes without Substrings (the general way dominated reading a cached roster). Nil sends `text` the general way, errors included. A '/' fails both part checks, so
    /// no resource can slip through. JIDTests checks both ways agree.
    static func plainBare(_ text: String) -> JID? {
        let parsed = text.utf8.withContiguousStorageIfAvailable { bytes -> JID? in
            let at = bytes.firstIndex(of: UInt8(ascii: "@"))
            let domain = bytes[(at.map { $0 + 1 } ?? 0)...]
            guard isPlainASCIIDomain(bytes: domain) else { return nil }
            var local: String?
            if let at {
                let part = bytes[..<at]
                guard !part.isEmpty, isPlainASCIILocal(bytes: part) else { return nil }
                local = String(decoding: UnsafeBufferPointer(rebasing: part), as: UTF8.self)
            }
            return JID(unchecked: local, String(decoding: UnsafeBufferPointer(rebasing: domain), as: UTF8.self), nil)
        }
        return parsed ?? nil
    }

    private init(unchecked local: String?, _ domain: String, _ resource: String?) {
        self.local = local
        self.domain = domain
        self.resource = resource
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = try JID(text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
