/// A byte pipe to the server: the socket, with TLS inserted when negotiated.
final class Transport {
    private let socket: Socket
    private var tls: TLSSession?
    /// `host:port`, for sentences about what the peer answered.
    let peerName: String
    /// The first bytes the peer sent on this connection (up to 8), to recognise a wrong protocol.
    private(set) var firstBytes: [UInt8] = []

    init(socket: Socket, peerName: String = "the server") {
        self.socket = socket
        self.peerName = peerName
    }

    private func readSocket(until deadline: ContinuousClock.Instant) throws(ConnectionError) -> [UInt8] {
        let bytes = try socket.read(until: deadline)
        if firstBytes.count < 8 { firstBytes += bytes.prefix(8 - firstBytes.count) }
        return bytes
    }

    /// The socket descriptor, for callers that poll many connections at once.
    var fileDescriptor: Int32 { socket.fd }

    /// True once TLS is in place.
    var isSecure: Bool { tls != nil }

    /// The TLS session, if any.
    var tlsSession: TLSSession? { tls }

    /// Sends bytes, through TLS when it is in place.
    func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(ConnectionError) {
        if let tls {
            try tls.writePlaintext(bytes)
            try socket.write(tls.takeCiphertext(), until: deadline)
        } else {
            try socket.write(bytes, until: deadline)
        }
    }

    /// Returns the next plaintext bytes, waiting until `deadline`.
    func receive(deadline: ContinuousClock.Instant) throws(ConnectionError) -> [UInt8] {
        guard let tls else {
            let bytes = try readSocket(until: deadline)
            if bytes.isEmpty { throw .closedByPeer }
            return bytes
        }
        while true {
            let plain = try tls.readPlaintext()
            // Reading may produce records to send (TLS 1.3 key updates, alerts).
            let pendingOut = tls.takeCiphertext()
            if !pendingOut.isEmpty { try socket.write(pendingOut, until: deadline) }
            if !plain.isEmpty { return plain }
            let cipher = try readSocket(until: deadline)
            if cipher.isEmpty { throw .closedByPeer }
            tls.receiveCiphertext(cipher)
        }
    }

    /// A TLS handshake under way (`beginTLS`, then `stepTLS` with each read).
    struct TLSHandshake {
        let session: TLSSession
        let directTLS: Bool
        /// How many bytes the peer had sent before the handshake began.
        let before: Int
    }

    /// Starts a TLS handshake; nothing is sent before the first `stepTLS`.
    func beginTLS(context: TLSContext, referenceName: String, directTLS: Bool) throws(ConnectionError) -> TLSHandshake {
        TLSHandshake(session: try TLSSession(context: context, referenceName: referenceName, directTLS: directTLS),
                     directTLS: directTLS, before: firstBytes.count)
    }

    /// Feeds the peer's `received` bytes (nil for the first step; empty: the peer closed) to the
    /// handshake, steps it and sends what it made. True once it finished: TLS is then in place.
    func stepTLS(_ handshake: TLSHandshake, received: [UInt8]?, deadline: ContinuousClock.Instant) throws(ConnectionError) -> Bool {
        if let received {
            if received.isEmpty {
                try refuseWrongProtocol(handshake)
                throw .closedByPeer
            }
            handshake.session.receiveCiphertext(received)
        }
        let done: Bool
        do {
            done = try handshake.session.handshakeStep()
        } catch {
            try refuseWrongProtocol(handshake)
            throw error
        }
        let out = handshake.session.takeCiphertext()
        if !out.isEmpty { try socket.write(out, until: deadline) }
        if done { tls = handshake.session }
        return done
    }

    /// Reads what the socket has now, without waiting: nil when nothing has arrived, empty at
    /// the end of the stream.
    func readSocketNow() throws(ConnectionError) -> [UInt8]? {
        do { return try readSocket(until: .now) } catch {
            if case .timedOut = error { return nil }
            throw error
        }
    }

    /// A direct-TLS handshake that failed on a peer that opened the connection with another
    /// protocol's greeting is named by that greeting (only then: a peer speaking first).
    private func refuseWrongProtocol(_ handshake: TLSHandshake) throws(ConnectionError) {
        if handshake.directTLS, handshake.before == 0, let greeting = PeerGreeting(firstBytes), greeting.isMismatch(expectedTLS: true) {
            throw .wrongProtocol(peer: peerName, answered: greeting)
        }
    }

    /// Sends close_notify where possible and closes the socket.
    func close() {
        if let tls {
            tls.shutdown()
            let out = tls.takeCiphertext()
            if !out.isEmpty { try? socket.write(out, until: .now + .milliseconds(200)) }
        }
        socket.close()
    }
}
