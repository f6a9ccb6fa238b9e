/// Push parser for one XMPP stream (RFC 6120 §4): the depth-0 element is the stream header,
/// each completed depth-1 element is one event.
///
/// Feed bytes in chunks of any size, down to one byte. It is built on libxml2's SAX2 push
/// parser and refuses DTDs, entities other than the predefined five, comments and processing
/// instructions, and enforces `XMLLimits`. Whitespace between stanzas is dropped; text inside
/// stanzas is kept, adjacent pieces coalesced. One owner at a time: not `Sendable`.
public final class XMLStreamParser {
    /// The limits this parser enforces.
    public let limits: XMLLimits
    private var session: LibXMLSession

    /// Creates a parser waiting for a stream header.
    public init(limits: XMLLimits = XMLLimits()) {
        self.limits = limits
        session = LibXMLSession(streamMode: true, limits: limits)
    }

    /// Parses the next bytes of the stream and returns the events they completed, in order.
    ///
    /// After an error the stream is unusable: this call and every later one throw the same
    /// error until `reset()`, and events completed earlier in the failing call are dropped.
    public func feed(_ bytes: some Collection<UInt8>) throws(XMLTreeError) -> [XMLStreamEvent] {
        if let failure = session.failure {
            throw failure
        }
        let session = session
        if bytes.withContiguousStorageIfAvailable({ session.feed($0) }) == nil {
            Array(bytes).withUnsafeBufferPointer { session.feed($0) }
        }
        let events = session.takeEvents()
        if let failure = session.failure {
            throw failure
        }
        return events
    }

    /// Starts over with a fresh libxml2 context for a new stream, as after STARTTLS or SASL
    /// success; clears any error.
    public func reset() {
        session = LibXMLSession(streamMode: true, limits: limits)
    }
}

/// Parses one standalone XML document (cached XML, vCard payloads, tests) under the same rules
/// as streams; the whole input counts against `limits.maxStanzaBytes`.
public func parseXMLDocument(_ text: String, limits: XMLLimits = XMLLimits()) throws(XMLTreeError) -> XMLElement {
    try parseXMLDocument(bytes: Array(text.utf8), limits: limits)
}

/// Parses one standalone XML document given as UTF-8 bytes; see `parseXMLDocument(_:limits:)`.
public func parseXMLDocument(bytes: some Collection<UInt8>, limits: XMLLimits = XMLLimits()) throws(XMLTreeError)
    -> XMLElement
{
    if bytes.count > limits.maxStanzaBytes {
        throw .stanzaTooLarge(limit: limits.maxStanzaBytes)
    }
    let session = LibXMLSession(streamMode: false, limits: limits)
    if bytes.withContiguousStorageIfAvailable({ session.feed($0, terminate: true) }) == nil {
        Array(bytes).withUnsafeBufferPointer { session.feed($0, terminate: true) }
    }
    if let failure = session.failure {
        throw failure
    }
    guard let document = session.builder.document else {
        throw .malformed("no root element")
    }
    return document
}
