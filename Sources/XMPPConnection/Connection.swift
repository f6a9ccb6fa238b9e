import CryptoPrimitives
import XMLTree
import XMPPStanzas

/// A client connection to one server: connected, secured by TLS, then optionally
/// authenticated and bound. One owner at a time (not Sendable); requests wait on
/// replies matched by id, each with a deadline.
public final class Connection: StanzaChannel {
    let stream: XMPPStream
    /// The options it was opened with.
    public let options: ConnectionOptions
    /// The endpoint that answered.
    public let endpoint: Endpoint
    /// The latest stream features.
    public internal(set) var features: StreamFeatures
    /// The full JID after binding.
    public internal(set) var boundJID: JID?
    /// The SASL mechanism that authenticated this stream.
    public internal(set) var mechanism: String?
    /// The last authentication failed before the server's first SCRAM challenge. Prosody 0.12
    /// and ejabberd 23.01 answer so only for an account that does not exist.
    public internal(set) var refusedBeforeChallenge = false
    /// The server's XEP-0474 downgrade-protection hash was present and matched.
    public internal(set) var downgradeProtected = false
    /// The opening left the post-TLS stream header for the log-in (`ConnectionOptions.pipelined`).
    var streamOpenPending = false
    private var inbox: [XMLElement] = []
    private var nextID = 0
    private let idPrefix = Hex.encode(Crypto.randomBytes(4))

    init(stream: XMPPStream, options: ConnectionOptions, endpoint: Endpoint, features: StreamFeatures) {
        self.stream = stream
        self.options = options
        self.endpoint = endpoint
        self.features = features
    }

    /// Hides the values of data-form fields named `name` from `--trace`, from now on: fields
    /// the command knows hold a password (`--password-field`), whatever their name or type.
    public func traceHidesField(_ name: String) { stream.redaction.addSecretField(name) }

    /// Hides `value` (a password the command read) wherever it would appear in `--trace`.
    public func traceHidesValue(_ value: String) { stream.redaction.addSecretValue(value) }

    /// The domain the stream was opened to.
    public var domain: String { options.domain }
    /// How long a request waits for its reply unless told otherwise.
    public var timeout: Duration { options.timeout }

    /// The negotiated TLS version.
    public var tlsVersion: TLSVersion? { stream.transport.tlsSession?.version }

    /// Connects to the first endpoint that answers, secures the stream with TLS (direct or
    /// STARTTLS; a server without TLS is refused) and returns it with its post-TLS features.
    public static func open(_ options: ConnectionOptions, tls: TLSContext, trace: TraceSink? = nil) throws(ConnectionError) -> Connection {
        try open(options, endpoints: options.resolveEndpoints(), tls: tls, trace: trace)
    }

    /// `open` over `endpoints` in this order: the connection engine's opening (`StreamOpening`)
    /// run to its end. Each endpoint but the last gets `connectTimeout` for its TCP connect, so
    /// one that never answers a SYN costs seconds, not `timeout`; the last gets `timeout` (with
    /// one endpoint nothing changes). Waits on a server that answered keep `timeout`. `failed`
    /// hears of each endpoint that was given up for another.
    public static func open(_ options: ConnectionOptions, endpoints: [Endpoint], tls: TLSContext, trace: TraceSink? = nil,
                            failed: @escaping (Endpoint, ConnectionError) -> Void = { _, _ in }) throws(ConnectionError) -> Connection {
        try StreamOpening(options, endpoints: endpoints, tls: tls, trace: trace, failed: failed).run()
    }

    /// A fresh stanza id.
    public func makeID() -> String {
        nextID += 1
        return "\(idPrefix)-\(nextID)"
    }

    /// Sends several elements in one write.
    public func send(_ elements: [XMLElement]) throws(ConnectionError) { try stream.send(elements) }

    /// Waits for the reply to an IQ already sent with `id`.
    public func awaitReply(id: String, timeout: Duration?) throws(ConnectionError) -> Iq {
        let deadline = ContinuousClock.now + (timeout ?? options.timeout)
        if let i = inbox.firstIndex(where: { Connection.isReply($0, to: id) }) {
            return try Connection.reply(from: inbox.remove(at: i))
        }
        while true {
            let element = try stream.nextElement(deadline: deadline)
            if Connection.isReply(element, to: id) { return try Connection.reply(from: element) }
            try answerIfPing(element)
            inbox.append(element)
        }
    }

    /// Keeps a stanza no request claimed for `nextStanza` (or the poll loop's `readAvailable`).
    func keep(_ element: XMLElement) { inbox.append(element) }

    /// The stanzas kept so far, handed over once.
    func takeKept() -> [XMLElement] {
        defer { inbox.removeAll() }
        return inbox
    }

    /// The next stanza that no request claimed, waiting until `deadline`.
    public func nextStanza(deadline: ContinuousClock.Instant) throws(ConnectionError) -> XMLElement {
        if !inbox.isEmpty { return inbox.removeFirst() }
        while true {
            let element = try stream.nextElement(deadline: deadline)
            if try answerIfPing(element) { continue }
            return element
        }
    }

    /// Ends the stream and closes the socket.
    public func close() { stream.close() }

    static func isReply(_ e: XMLElement, to id: String) -> Bool {
        e.name == "iq" && e[attribute: "id"] == id && (e[attribute: "type"] == "result" || e[attribute: "type"] == "error")
    }

    /// The IQ in a reply; an error reply is thrown as `stanzaError`.
    public static func reply(from element: XMLElement) throws(ConnectionError) -> Iq {
        let iq: Iq
        do { iq = try Iq(element: element) } catch { throw .badStanza(error) }
        if iq.type == .error { throw .stanzaError(iq.error ?? StanzaError(type: "cancel", condition: .undefinedCondition)) }
        return iq
    }

    /// Answers a server ping (XEP-0199); true when `element` was one.
    @discardableResult
    func answerIfPing(_ element: XMLElement) throws(ConnectionError) -> Bool {
        guard let reply = ServerPing.reply(to: element) else { return false }
        try send([reply])
        return true
    }
}
