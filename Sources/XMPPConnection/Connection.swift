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
    /// `open` left the post-TLS stream header for `logIn` (`ConnectionOptions.pipelined`).
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

    /// `open` over `endpoints` in this order. Each endpoint but the last gets `connectTimeout`
    /// for its TCP connect, so one that never answers a SYN costs seconds, not `timeout`; the
    /// last gets `timeout` (with one endpoint nothing changes). Waits on a server that answered
    /// keep `timeout`. `failed` hears of each endpoint that was given up for another.
    public static func open(_ options: ConnectionOptions, endpoints: [Endpoint], tls: TLSContext, trace: TraceSink? = nil,
                            failed: (Endpoint, ConnectionError) -> Void = { _, _ in }) throws(ConnectionError) -> Connection {
        var lastError = ConnectionError.dnsFailed(host: options.domain, reason: "no endpoints")
        for (index, endpoint) in endpoints.enumerated() {
            let connectBudget = index == endpoints.count - 1 ? options.timeout : min(options.timeout, options.connectTimeout)
            do {
                return try open(options, endpoint: endpoint, connectBudget: connectBudget, tls: tls, trace: trace)
            } catch {
                lastError = error
                // Certificate and protocol problems are answers, not a failed path: stop there.
                guard error.isLinkFailure else { throw error }
                failed(endpoint, error)
            }
        }
        throw lastError
    }

    private static func open(_ options: ConnectionOptions, endpoint: Endpoint, connectBudget: Duration, tls: TLSContext,
                             trace: TraceSink?) throws(ConnectionError) -> Connection {
        let socket = try Socket.connect(host: endpoint.host, port: endpoint.port, deadline: .now + connectBudget)
        let deadline = ContinuousClock.now + options.timeout
        let transport = Transport(socket: socket, peerName: "\(endpoint.host):\(endpoint.port)")
        if endpoint.directTLS {
            try transport.startTLS(context: tls, referenceName: options.dnsName, directTLS: true, deadline: deadline)
        }
        let stream = XMPPStream(transport: transport, timeout: options.timeout, limits: options.limits, trace: trace)
        let startTLS = XMLElement("starttls", namespace: Namespace.tls)
        var features = StreamFeatures(element: XMLElement("features", namespace: Namespace.streams))
        if !transport.isSecure {
            // Pipelined, <starttls/> rides with the header (RFC 6120 §5.4.2 says features first;
            // Prosody and ejabberd both answer it after their features): a server without
            // STARTTLS is refused whichever way, so nothing else is ever sent in clear text.
            features = try stream.open(to: options.domain, from: nil, then: options.pipelined ? [startTLS] : [])
            guard features.startTLS else { stream.close(); throw .tlsUnavailable }
            if !options.pipelined { try stream.send(startTLS) }
            let answer = try stream.nextElement(deadline: .now + options.timeout)
            guard answer.name == "proceed", answer.namespace == Namespace.tls else {
                stream.close()
                throw .protocolViolation("server refused STARTTLS (<\(answer.name)/>)")
            }
            try transport.startTLS(context: tls, referenceName: options.dnsName, directTLS: false, deadline: .now + options.timeout)
        }
        let connection = Connection(stream: stream, options: options, endpoint: endpoint, features: features)
        // Pipelined, logIn opens the stream, with <authenticate/> in the same write.
        if options.pipelined { connection.streamOpenPending = true } else { try connection.openStreamIfPending(force: true) }
        return connection
    }

    /// Opens the stream after TLS if `open` left it for `logIn`; `force` opens it regardless.
    func openStreamIfPending(force: Bool = false) throws(ConnectionError) {
        guard streamOpenPending || force else { return }
        streamOpenPending = false
        features = try stream.open(to: options.domain, from: options.account)
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
    static func reply(from element: XMLElement) throws(ConnectionError) -> Iq {
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
