import Glibc
import XMLTree
import XMPPStanzas

/// A password log-in that never waits, for a poll loop that runs many at once (the batch's
/// per-account work): TCP, TLS (direct, or by STARTTLS), RFC 6120 SASL (`SASLExchange`), the
/// stream restart and resource binding, each step taken when the socket has what it needs.
/// What each step sends and checks is what `Connection.open`, `authenticate` and `bind` do;
/// once bound, the log-in becomes a `PolledConnection`. One owner; not Sendable.
public final class PolledLogIn {
    private enum State {
        /// A TCP connect under way: the socket becomes writable when it ends.
        case connecting(Socket)
        case handshaking(Transport.TLSHandshake)
        /// The stream header is sent; the server's header and features are due.
        case awaitingFeatures(Stage)
        /// `<starttls/>` is sent; `<proceed/>` is due.
        case awaitingProceed
        case authenticating(SASLExchange)
        case binding(id: String)
        case startingSession(id: String)
    }

    /// Which features the stream is waiting for.
    private enum Stage { case clear, secured, authenticated }

    /// The endpoint this log-in connects to now.
    public private(set) var endpoint: Endpoint
    /// The endpoints still to try if this one fails as a link (`Connection.open`'s order).
    private var laterEndpoints: [Endpoint]
    private let failed: (Endpoint, ConnectionError) -> Void
    private let options: ConnectionOptions
    private let tls: TLSContext
    private let trace: TraceSink?
    private let username: String
    private let password: String
    private let resource: String?
    private var addresses: Socket.Connecting
    private var state: State
    private var transport: Transport?
    private var stream: XMPPStream?
    private var connection: Connection?
    /// When the step under way is given up (`options.timeout` after the last one).
    public private(set) var deadline: ContinuousClock.Instant

    /// Starts connecting to the first of `endpoints` to log in as `username` (the local part)
    /// with `password`, binding `resource` (nil: the tools' own random one). As in
    /// `Connection.open`, an endpoint that fails as a link before the stream is secured is given
    /// up for the next (`failed` hears of it), and each but the last gets `connectTimeout` to
    /// accept the connection.
    public init(_ options: ConnectionOptions, endpoints: [Endpoint], tls: TLSContext, trace: TraceSink? = nil,
                username: String, password: String, resource: String?,
                failed: @escaping (Endpoint, ConnectionError) -> Void = { _, _ in }) throws(ConnectionError) {
        guard let first = endpoints.first else { throw .dnsFailed(host: options.domain, reason: "no endpoints") }
        self.options = options
        endpoint = first
        laterEndpoints = Array(endpoints.dropFirst())
        self.failed = failed
        self.tls = tls
        self.trace = trace
        self.username = username
        self.password = password
        self.resource = resource
        addresses = try Socket.Connecting(host: first.host, port: first.port)
        deadline = .now
        state = .connecting(try addresses.nextStarted())
        deadline = connectDeadline
    }

    private var connectDeadline: ContinuousClock.Instant {
        .now + (laterEndpoints.isEmpty ? options.timeout : min(options.timeout, options.connectTimeout))
    }

    /// The socket to watch.
    public var fileDescriptor: Int32 {
        if case .connecting(let socket) = state { return socket.fd }
        return transport?.fileDescriptor ?? -1
    }

    /// Whether the socket is watched for `POLLOUT` (a connect under way) rather than `POLLIN`.
    public var wantsWrite: Bool {
        if case .connecting = state { return true }
        return false
    }

    /// The server refused the password before its first SCRAM challenge (see `Connection`).
    public var refusedBeforeChallenge: Bool { connection?.refusedBeforeChallenge ?? false }

    /// The error for a step not finished by `deadline`.
    var timedOut: ConnectionError {
        if case .connecting = state { return .timedOut("connecting to \(endpoint.host) port \(endpoint.port)") }
        return .timedOut("waiting for the server")
    }

    /// Takes every step the socket allows now. The bound connection once the log-in is done,
    /// nil while it waits for the socket; a failure is thrown (the socket is then closed).
    public func advance() throws(ConnectionError) -> PolledConnection? {
        while true {
            do {
                guard let next = try step() else { return nil }
                state = next
                deadline = .now + options.timeout
                if bound, let connection { return PolledConnection.wrapping(connection) }
            } catch {
                close()
                try failOver(after: error)
            }
        }
    }

    /// The deadline passed: the next endpoint if the step was still on the link, else the error.
    public func expire() throws(ConnectionError) {
        close()
        try failOver(after: timedOut)
    }

    /// Starts again on the next endpoint after a link failure before the stream was secured
    /// (certificate and protocol problems are answers, not a failed path: they are thrown).
    private func failOver(after error: ConnectionError) throws(ConnectionError) {
        guard connection == nil, error.isLinkFailure, !laterEndpoints.isEmpty else { throw error }
        failed(endpoint, error)
        endpoint = laterEndpoints.removeFirst()
        transport = nil
        stream = nil
        addresses = try Socket.Connecting(host: endpoint.host, port: endpoint.port)
        state = .connecting(try addresses.nextStarted())
        deadline = connectDeadline
    }

    /// Closes the socket (a log-in given up).
    public func close() {
        if let stream { stream.close() } else if case .connecting(let socket) = state { socket.close() }
    }

    // MARK: - Steps

    /// Set by the last step once the session is bound.
    private var bound = false

    /// The next state, or nil when the socket has nothing for the step under way.
    private func step() throws(ConnectionError) -> State? {
        switch state {
        case .connecting(let socket):
            guard socket.isReady(for: Int16(POLLOUT)) else { return nil }
            guard try addresses.finish(socket) else { return .connecting(try addresses.nextStarted()) }
            let transport = Transport(socket: socket, peerName: "\(endpoint.host):\(endpoint.port)")
            self.transport = transport
            let stream = XMPPStream(transport: transport, timeout: options.timeout, limits: options.limits, trace: trace)
            self.stream = stream
            if endpoint.directTLS { return try beginTLS(directTLS: true) }
            try stream.sendHeader(to: options.domain)
            return .awaitingFeatures(.clear)
        case .handshaking(let handshake):
            guard let transport, let received = try transport.readSocketNow() else { return nil }
            guard try transport.stepTLS(handshake, received: received, deadline: .now + options.timeout) else { return .handshaking(handshake) }
            return try secured()
        case .awaitingFeatures(let stage):
            guard let stream, let features = try arrived({ () throws(ConnectionError) in try stream.features(deadline: .now) }) else { return nil }
            return try take(features, stage)
        case .awaitingProceed:
            guard let stream, let answer = try nextElement() else { return nil }
            guard answer.name == "proceed", answer.namespace == Namespace.tls else {
                stream.close()
                throw .protocolViolation("server refused STARTTLS (<\(answer.name)/>)")
            }
            return try beginTLS(directTLS: false)
        case .authenticating(var exchange):
            guard let stream, let connection, let answer = try nextElement() else { return nil }
            let step: SASLExchange.Step
            do { step = try exchange.receive(answer) } catch {
                connection.refusedBeforeChallenge = exchange.refusedBeforeChallenge
                throw error
            }
            switch step {
            case .send(let next):
                try stream.send(next)
                return .authenticating(exchange)
            case .succeeded:
                connection.mechanism = exchange.mechanismName
                connection.downgradeProtected = exchange.downgradeProtected
                try stream.sendHeader(to: options.domain, from: options.account)
                return .awaitingFeatures(.authenticated)
            }
        case .binding(let id):
            guard let connection, let reply = try reply(to: id) else { return nil }
            _ = try connection.takeBound(reply)
            guard let session = connection.sessionRequest() else {
                bound = true
                return .binding(id: id)
            }
            try connection.send([session.element])
            return .startingSession(id: session.id)
        case .startingSession(let id):
            guard try reply(to: id) != nil else { return nil }
            bound = true
            return .startingSession(id: id)
        }
    }

    private func beginTLS(directTLS: Bool) throws(ConnectionError) -> State {
        guard let transport else { throw .protocolViolation("no transport to secure") }
        let handshake = try transport.beginTLS(context: tls, referenceName: options.dnsName, directTLS: directTLS)
        guard try transport.stepTLS(handshake, received: nil, deadline: .now + options.timeout) else { return .handshaking(handshake) }
        return try secured()
    }

    /// TLS is in place: the stream starts again, naming the account as `Connection.open` does.
    private func secured() throws(ConnectionError) -> State {
        guard let stream else { throw .protocolViolation("no stream") }
        try stream.sendHeader(to: options.domain, from: options.account)
        return .awaitingFeatures(.secured)
    }

    private func take(_ features: StreamFeatures, _ stage: Stage) throws(ConnectionError) -> State {
        guard let stream else { throw .protocolViolation("no stream") }
        switch stage {
        case .clear:
            // A server without STARTTLS is refused: nothing is ever sent in clear text.
            guard features.startTLS else {
                stream.close()
                throw .tlsUnavailable
            }
            try stream.send(XMLElement("starttls", namespace: Namespace.tls))
            return .awaitingProceed
        case .secured:
            let connection = Connection(stream: stream, options: options, endpoint: endpoint, features: features)
            self.connection = connection
            let choice: MechanismChoice
            do {
                choice = try SASLSelection.choice(
                    offered: features.mechanisms, tls: connection.tlsBinding, cachedKeysHash: nil, usedSCRAMBefore: false,
                    allowPlain: true, requireSCRAM: false, serverCBTypes: connection.serverCBTypes)
            } catch { throw .sasl(error) }
            let exchange = try SASLExchange(choice: choice, username: username, credential: .password(password), features: features)
            try stream.send(exchange.initial)
            return .authenticating(exchange)
        case .authenticated:
            guard let connection else { throw .protocolViolation("no connection") }
            connection.features = features
            let request = try connection.bindRequest(resource: resource)
            try connection.send([request.element])
            return .binding(id: request.id)
        }
    }

    /// The next element if one has arrived; server pings are answered on the way.
    private func nextElement() throws(ConnectionError) -> XMLElement? {
        guard let stream else { return nil }
        while let element = try arrived({ () throws(ConnectionError) in try stream.nextElement(deadline: .now) }) {
            if let connection, try connection.answerIfPing(element) { continue }
            return element
        }
        return nil
    }

    /// The reply to `id` if it has arrived (other stanzas before it are not the log-in's).
    private func reply(to id: String) throws(ConnectionError) -> Iq? {
        while let element = try nextElement() {
            if Connection.isReply(element, to: id) { return try Connection.reply(from: element) }
        }
        return nil
    }

    /// What `read` gives, or nil when it ran out of input (`.timedOut` at a passed deadline).
    private func arrived<T>(_ read: () throws(ConnectionError) -> T) throws(ConnectionError) -> T? {
        do { return try read() } catch {
            if case .timedOut = error { return nil }
            throw error
        }
    }
}
