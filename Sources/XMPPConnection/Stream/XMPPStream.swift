import XMLTree
import XMPPStanzas

/// An XML stream over a transport (RFC 6120 §4): opens and restarts streams, sends elements,
/// and yields received top-level elements in order. Stream errors become `ConnectionError.stream`.
final class XMPPStream {
    let transport: Transport
    private let parser: XMLStreamParser
    private var pending: [XMLStreamEvent] = []
    private let trace: TraceSink?
    /// What `--trace` hides: learned from the stream as it goes, and told by the command.
    let redaction = TraceRedaction()
    /// The default read timeout for each wait.
    let timeout: Duration
    /// The `id` of the server's current stream header.
    private(set) var streamID: String?

    init(transport: Transport, timeout: Duration, limits: XMLLimits, trace: TraceSink?) {
        self.transport = transport
        self.timeout = timeout
        self.parser = XMLStreamParser(limits: limits)
        self.trace = trace
    }

    /// Opens (or, after STARTTLS or SASL, restarts) the stream: the header sent, the parser
    /// ready for the server's header; `features` reads the answer. `from` (the account's bare
    /// JID) goes into the header only when the caller says so, which it does only under TLS:
    /// servers offer FAST (XEP-0484) only to a stream that names its user. `then` goes in the
    /// same write as the header (pipelining, for a caller that knows what the server will offer).
    func sendHeader(to domain: String, from account: String? = nil, then elements: [XMLElement] = []) throws(ConnectionError) {
        parser.reset()
        pending.removeAll()
        let header = "<?xml version='1.0'?><stream:stream xmlns='\(Namespace.client)' "
            + "xmlns:stream='\(Namespace.streams)' to='\(XMLEscaping.attribute(domain))' "
            + (account.map { "from='\(XMLEscaping.attribute($0))' " } ?? "") + "version='1.0' xml:lang='en'>"
        trace?(.sent, header)
        var bytes = Array(header.utf8)
        for element in elements {
            if let trace { trace(.sent, redaction.redact(element).serialized(inheritedNamespace: Namespace.client)) }
            bytes += element.serialized(inheritedNamespace: Namespace.client).utf8
        }
        try transport.send(bytes, deadline: .now + timeout)
    }

    /// The answer to `sendHeader`: the server's stream header, then its features, waiting until
    /// `deadline`. A deadline already passed reads only what has arrived (`.timedOut` when the
    /// features have not; what was read stays for the next call).
    func features(deadline: ContinuousClock.Instant) throws(ConnectionError) -> StreamFeatures {
        while true {
            switch try nextEvent(deadline: deadline) {
            case .streamOpened(let h):
                guard h.name == "stream", h.namespace == Namespace.streams else {
                    throw .protocolViolation("expected a stream header, got <\(h.name)>")
                }
                streamID = h[attribute: "id"]
            case .element(let e):
                if StreamFeatures.matches(e) { return StreamFeatures(element: e) }
                throw .protocolViolation("expected stream features, got <\(e.name)>")
            case .streamClosed:
                throw .streamClosed
            }
        }
    }

    /// Sends one element.
    func send(_ element: XMLElement) throws(ConnectionError) {
        if let trace { trace(.sent, redaction.redact(element).serialized(inheritedNamespace: Namespace.client)) }
        try transport.send(Array(element.serialized(inheritedNamespace: Namespace.client).utf8), deadline: .now + timeout)
    }

    /// Sends several elements in one write (pipelining).
    func send(_ elements: [XMLElement]) throws(ConnectionError) {
        var bytes: [UInt8] = []
        for element in elements {
            if let trace { trace(.sent, redaction.redact(element).serialized(inheritedNamespace: Namespace.client)) }
            bytes += element.serialized(inheritedNamespace: Namespace.client).utf8
        }
        try transport.send(bytes, deadline: .now + timeout)
    }

    /// The next top-level element; a stream error or close is thrown.
    func nextElement(deadline: ContinuousClock.Instant) throws(ConnectionError) -> XMLElement {
        switch try nextEvent(deadline: deadline) {
        case .element(let e): return e
        case .streamOpened: throw .protocolViolation("unexpected second stream header")
        case .streamClosed: throw .streamClosed
        }
    }

    private func nextEvent(deadline: ContinuousClock.Instant) throws(ConnectionError) -> XMLStreamEvent {
        while pending.isEmpty {
            let wasFirst = transport.firstBytes.isEmpty
            let bytes: [UInt8]
            do {
                bytes = try transport.receive(deadline: deadline)
            } catch {
                // A direct-TLS port (Prosody's) hangs up on a stream header without a byte.
                if case .closedByPeer = error, wasFirst, !transport.isSecure { throw .closedWithoutAnswer(transport.peerName) }
                throw error
            }
            if wasFirst, !transport.isSecure, let greeting = PeerGreeting(bytes), greeting.isMismatch(expectedTLS: false) {
                throw .wrongProtocol(peer: transport.peerName, answered: greeting)
            }
            do {
                pending += try parser.feed(bytes)
            } catch {
                throw .xml(error)
            }
        }
        let event = pending.removeFirst()
        switch event {
        case .element(let e):
            if let trace { trace(.received, redaction.redact(e).serialized(inheritedNamespace: Namespace.client)) }
            if StreamError.matches(e) { throw .stream(StreamError(element: e)) }
        case .streamOpened(let h):
            trace?(.received, "<stream:stream" + h.attributes.map { " \($0.name)='\(XMLEscaping.attribute($0.value))'" }.joined() + ">")
        case .streamClosed:
            trace?(.received, "</stream:stream>")
        }
        return event
    }

    /// Ends the stream politely and closes the connection.
    func close() {
        trace?(.sent, "</stream:stream>")
        try? transport.send(Array("</stream:stream>".utf8), deadline: .now + .milliseconds(500))
        transport.close()
    }
}
