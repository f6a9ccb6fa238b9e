import Glibc
import XMLTree
import XMPPStanzas

/// Opening a client stream as steps that never wait: TCP to the first endpoint that answers,
/// TLS (direct, or by STARTTLS; a server without it is refused, so nothing is ever sent in
/// clear text), then the stream under TLS and its features. The result is the `Connection`.
/// An endpoint that fails as a link is given up for the next (`failed` hears of it); each but
/// the last gets `connectTimeout` to accept the connection, so one that never answers a SYN
/// costs seconds, not `timeout`. `Connection.open` runs it blocking; `PolledSetup` polled.
final class StreamOpening: StreamSteps {
    private enum State {
        /// A TCP connect under way: the socket becomes writable when it ends (nil: none started).
        case connecting(Socket?)
        case handshaking(Transport.TLSHandshake)
        /// The clear-text stream header is sent; the server's header and features are due.
        case awaitingClearFeatures
        /// `<starttls/>` is sent; `<proceed/>` is due.
        case awaitingProceed
        /// The stream header under TLS is sent; the features are due.
        case awaitingSecuredFeatures
    }

    /// The endpoint this opening connects to now.
    private(set) var endpoint: Endpoint
    /// The endpoints still to try if this one fails as a link.
    private var laterEndpoints: [Endpoint]
    private let failed: (Endpoint, ConnectionError) -> Void
    private let options: ConnectionOptions
    private let tls: TLSContext
    private let trace: TraceSink?
    private var addresses: Socket.Connecting?
    private var state: State
    private var transport: Transport?
    private var stream: XMPPStream?
    /// The socket under way was closed (a failure, or given up).
    private var closed = false
    /// The clear-text stream's features (kept for the connection when the stream under TLS is
    /// left for the log-in to open: `ConnectionOptions.pipelined`).
    private var clearFeatures = StreamFeatures(element: XMLElement("features", namespace: Namespace.streams))
    private(set) var deadline: ContinuousClock.Instant

    /// Starts connecting to the first of `endpoints`.
    init(_ options: ConnectionOptions, endpoints: [Endpoint], tls: TLSContext, trace: TraceSink?,
         failed: @escaping (Endpoint, ConnectionError) -> Void) throws(ConnectionError) {
        guard let first = endpoints.first else { throw .dnsFailed(host: options.domain, reason: "no endpoints") }
        self.options = options
        endpoint = first
        laterEndpoints = Array(endpoints.dropFirst())
        self.failed = failed
        self.tls = tls
        self.trace = trace
        deadline = .now
        var started: (Socket.Connecting, State)?
        var refused: ConnectionError?
        do { started = try StreamOpening.start(first) } catch { refused = error }
        addresses = started?.0
        state = started?.1 ?? .connecting(nil)
        deadline = connectDeadline
        // An endpoint that cannot even be started fails over as one that refused later.
        if let refused { try failOver(after: refused) }
    }

    /// Resolves `endpoint` and starts connecting to its first address that did not fail at once.
    private static func start(_ endpoint: Endpoint) throws(ConnectionError) -> (Socket.Connecting, State) {
        var addresses = try Socket.Connecting(host: endpoint.host, port: endpoint.port)
        let socket = try addresses.nextStarted()
        return (addresses, .connecting(socket))
    }

    private var connectDeadline: ContinuousClock.Instant {
        .now + (laterEndpoints.isEmpty ? options.timeout : min(options.timeout, options.connectTimeout))
    }

    var fileDescriptor: Int32 {
        if case .connecting(let socket) = state { return socket?.fd ?? -1 }
        return transport?.fileDescriptor ?? -1
    }

    var wantsWrite: Bool {
        if case .connecting = state { return true }
        return false
    }

    /// The error for a step not finished by `deadline`.
    private var timedOut: ConnectionError {
        if case .connecting = state { return .timedOut("connecting to \(endpoint.host) port \(endpoint.port)") }
        return .timedOut("waiting for the server")
    }

    func advance() throws(ConnectionError) -> Connection? {
        while true {
            do {
                let progress = try step()
                switch progress {
                case .waiting: return nil
                case .next(let next):
                    state = next
                    if case .connecting = next { continue }  // the next address, within the connect's time
                    deadline = .now + options.timeout
                case .opened(let connection): return connection
                }
            } catch {
                close()
                try failOver(after: error)
            }
        }
    }

    func expire() throws(ConnectionError) {
        let error = timedOut
        close()
        try failOver(after: error)
    }

    /// Starts again on the next endpoint after a link failure (certificate and protocol problems
    /// are answers, not a failed path: they are thrown).
    private func failOver(after error: ConnectionError) throws(ConnectionError) {
        var error = error
        while true {
            guard error.isLinkFailure, !laterEndpoints.isEmpty else { throw error }
            failed(endpoint, error)
            endpoint = laterEndpoints.removeFirst()
            transport = nil
            stream = nil
            closed = false
            do {
                (addresses, state) = try StreamOpening.start(endpoint)
                deadline = connectDeadline
                return
            } catch let next {
                error = next
            }
        }
    }

    /// Closes the socket (an opening given up), once.
    func close() {
        guard !closed else { return }
        closed = true
        if let stream { stream.close() } else if case .connecting(let socket?) = state { socket.close() }
    }

    private enum Progress {
        case waiting
        case next(State)
        case opened(Connection)
    }

    private func step() throws(ConnectionError) -> Progress {
        switch state {
        case .connecting(let socket):
            guard let socket, var connecting = addresses else { throw .protocolViolation("no connect under way") }
            guard socket.isReady(for: Int16(POLLOUT)) else { return .waiting }
            defer { addresses = connecting }
            guard try connecting.finish(socket) else { return .next(.connecting(try connecting.nextStarted())) }
            let transport = Transport(socket: socket, peerName: "\(endpoint.host):\(endpoint.port)")
            self.transport = transport
            stream = XMPPStream(transport: transport, timeout: options.timeout, limits: options.limits, trace: trace)
            if endpoint.directTLS { return try beginTLS(directTLS: true) }
            // Pipelined, <starttls/> rides with the header (RFC 6120 §5.4.2 says features first;
            // Prosody and ejabberd both answer it after their features): a server without
            // STARTTLS is refused whichever way, so nothing else is ever sent in clear text.
            try stream?.sendHeader(to: options.domain, then: options.pipelined ? [StreamOpening.startTLS] : [])
            return .next(.awaitingClearFeatures)
        case .handshaking(let handshake):
            guard let transport, let received = try transport.readSocketNow() else { return .waiting }
            guard try transport.stepTLS(handshake, received: received, deadline: .now + options.timeout) else {
                return .next(.handshaking(handshake))
            }
            return try secured()
        case .awaitingClearFeatures:
            guard let stream, let features = try arrived({ () throws(ConnectionError) in try stream.features(deadline: .now) }) else {
                return .waiting
            }
            guard features.startTLS else {
                stream.close()
                throw .tlsUnavailable
            }
            clearFeatures = features
            if !options.pipelined { try stream.send(StreamOpening.startTLS) }
            return .next(.awaitingProceed)
        case .awaitingProceed:
            guard let stream, let answer = try arrived({ () throws(ConnectionError) in try stream.nextElement(deadline: .now) }) else {
                return .waiting
            }
            guard answer.name == "proceed", answer.namespace == Namespace.tls else {
                stream.close()
                throw .protocolViolation("server refused STARTTLS (<\(answer.name)/>)")
            }
            return try beginTLS(directTLS: false)
        case .awaitingSecuredFeatures:
            guard let stream, let features = try arrived({ () throws(ConnectionError) in try stream.features(deadline: .now) }) else {
                return .waiting
            }
            return .opened(Connection(stream: stream, options: options, endpoint: endpoint, features: features))
        }
    }

    private static let startTLS = XMLElement("starttls", namespace: Namespace.tls)

    private func beginTLS(directTLS: Bool) throws(ConnectionError) -> Progress {
        guard let transport else { throw .protocolViolation("no transport to secure") }
        let handshake = try transport.beginTLS(context: tls, referenceName: options.dnsName, directTLS: directTLS)
        guard try transport.stepTLS(handshake, received: nil, deadline: .now + options.timeout) else { return .next(.handshaking(handshake)) }
        return try secured()
    }

    /// TLS is in place: the stream starts again, naming the account. Pipelined, the log-in
    /// opens it, with its `<authenticate/>` in the same write.
    private func secured() throws(ConnectionError) -> Progress {
        guard let stream else { throw .protocolViolation("no stream") }
        if options.pipelined {
            let connection = Connection(stream: stream, options: options, endpoint: endpoint, features: clearFeatures)
            connection.streamOpenPending = true
            return .opened(connection)
        }
        try stream.sendHeader(to: options.domain, from: options.account)
        return .next(.awaitingSecuredFeatures)
    }
}
