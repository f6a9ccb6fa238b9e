/// Resource limits applied while parsing untrusted XML.
public struct XMLLimits: Sendable, Equatable {
    /// Most bytes one stanza may take: counted from the end of the previous stanza (or of the
    /// stream header) up to the end of this one, or the whole input of `parseXMLDocument`.
    public var maxStanzaBytes: Int
    /// Deepest element nesting allowed; the stream header (or document root) is depth 0,
    /// a stanza depth 1.
    public var maxDepth: Int
    /// Most attributes one element may carry, namespace declarations included.
    public var maxAttributes: Int

    /// Creates limits; the defaults suit an XMPP client stream.
    public init(maxStanzaBytes: Int = 1 << 20, maxDepth: Int = 64, maxAttributes: Int = 256) {
        self.maxStanzaBytes = maxStanzaBytes
        self.maxDepth = maxDepth
        self.maxAttributes = maxAttributes
    }
}
