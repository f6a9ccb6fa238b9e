/// A stream set up on a poll loop that runs many at once (the batch's streams): the connection
/// engine's opening (`StreamOpening`) and, for a per-account stream, its log-in (`StreamLogIn`,
/// RFC 6120 SASL with the password) — what `Connection.open`, `authenticate` and `bind` run
/// blocking — here taken a step at a time as the socket allows. Once set up, it becomes a
/// `PolledConnection`. One owner; not Sendable.
public final class PolledSetup {
    private var opening: StreamOpening?
    private var logIn: StreamLogIn?
    private var connection: Connection?
    /// The log-in once opened; nil: the stream is used as opened (registration).
    private let request: LoginRequest?
    private var closed = false

    /// Starts connecting to the first of `endpoints` to use the stream as opened (TLS, no
    /// authentication). An endpoint that fails as a link before the stream is secured is given
    /// up for the next (`failed` hears of it), as in `Connection.open`.
    public init(opening options: ConnectionOptions, endpoints: [Endpoint], tls: TLSContext, trace: TraceSink? = nil,
                failed: @escaping (Endpoint, ConnectionError) -> Void = { _, _ in }) throws(ConnectionError) {
        opening = try StreamOpening(options, endpoints: endpoints, tls: tls, trace: trace, failed: failed)
        request = nil
    }

    /// The same, then logging in as `username` (the local part) with `password` and binding
    /// `resource` (nil: the tools' own random one).
    public init(_ options: ConnectionOptions, endpoints: [Endpoint], tls: TLSContext, trace: TraceSink? = nil,
                username: String, password: String, resource: String?,
                failed: @escaping (Endpoint, ConnectionError) -> Void = { _, _ in }) throws(ConnectionError) {
        opening = try StreamOpening(options, endpoints: endpoints, tls: tls, trace: trace, failed: failed)
        request = LoginRequest(username: username, credential: .password(password), usedSCRAMBefore: false, resource: resource)
    }

    /// The socket to watch.
    public var fileDescriptor: Int32 { opening?.fileDescriptor ?? logIn?.fileDescriptor ?? -1 }

    /// Whether the socket is watched for `POLLOUT` (a connect under way) rather than `POLLIN`.
    public var wantsWrite: Bool { opening?.wantsWrite ?? false }

    /// When the step under way is given up (`options.timeout` after the last one).
    public var deadline: ContinuousClock.Instant { opening?.deadline ?? logIn?.deadline ?? .now }

    /// The server refused the password before its first SCRAM challenge (see `Connection`).
    public var refusedBeforeChallenge: Bool { connection?.refusedBeforeChallenge ?? false }

    /// Takes every step the socket allows now. The connection once set up, nil while it waits
    /// for the socket; a failure is thrown (the socket is then closed).
    public func advance() throws(ConnectionError) -> PolledConnection? {
        do {
            if let opening {
                guard let opened = try opening.advance() else { return nil }
                self.opening = nil
                connection = opened
                if let request { logIn = try StreamLogIn(opened, request, saslOnly: true) }
            }
            guard let connection else { return nil }
            if let logIn {
                guard try logIn.advance() != nil else { return nil }
                self.logIn = nil
            }
            return PolledConnection.wrapping(connection)
        } catch {
            close()
            throw error
        }
    }

    /// The deadline passed: the next endpoint if the step was still on the link, else the error.
    public func expire() throws(ConnectionError) {
        do {
            if let opening { try opening.expire() } else { try logIn?.expire() }
        } catch {
            close()
            throw error
        }
    }

    /// Closes the socket (a setup given up).
    public func close() {
        guard !closed else { return }
        closed = true
        if let connection { connection.close() } else { opening?.close() }
    }
}
