/// A stream set up on a poll loop that runs many at once (the batch's streams): the connection
/// engine's opening (`StreamOpening`) and, for a per-account stream, its log-in (`StreamLogIn`,
/// RFC 6120 SASL with the password) — what `Connection.open`, `authenticate` and `bind` run
/// blocking — here taken a step at a time as the socket allows; for an account's own session
/// (the administrator's), its `LoginPolicy` gives the request once the stream is open and
/// records the outcome. Once set up, it becomes a `PolledConnection`. One owner; not Sendable.
public final class PolledSetup {
    private var opening: StreamOpening?
    private var logIn: StreamLogIn?
    private var connection: Connection?
    /// The log-in once opened; nil: the stream is used as opened (registration), or `policy` says.
    private let request: LoginRequest?
    /// The account's session policy, asked for the request once the stream is open.
    private let policy: LoginPolicy?
    /// The policy gave this stream its turn: it hears how the log-in ended.
    private var holdsTurn = false
    /// Open, waiting for the policy's turn (another stream uses the account's token) until then.
    private var turnDeadline: ContinuousClock.Instant?
    private var closed = false

    /// Starts connecting to the first of `endpoints` to use the stream as opened (TLS, no
    /// authentication). An endpoint that fails as a link before the stream is secured is given
    /// up for the next (`failed` hears of it), as in `Connection.open`.
    public init(opening options: ConnectionOptions, endpoints: [Endpoint], tls: TLSContext, trace: TraceSink? = nil,
                failed: @escaping (Endpoint, ConnectionError) -> Void = { _, _ in }) throws(ConnectionError) {
        opening = try StreamOpening(options, endpoints: endpoints, tls: tls, trace: trace, failed: failed)
        request = nil
        policy = nil
    }

    /// The same, then logging in with an account's session as `policy` says (SASL2 and FAST
    /// where offered), once the policy gives the stream its turn.
    public init(_ options: ConnectionOptions, endpoints: [Endpoint], tls: TLSContext, trace: TraceSink? = nil,
                policy: LoginPolicy, failed: @escaping (Endpoint, ConnectionError) -> Void = { _, _ in }) throws(ConnectionError) {
        opening = try StreamOpening(options, endpoints: endpoints, tls: tls, trace: trace, failed: failed)
        request = nil
        self.policy = policy
    }

    /// The same, then logging in as `username` (the local part) with `password` and binding
    /// `resource` (nil: the tools' own random one).
    public init(_ options: ConnectionOptions, endpoints: [Endpoint], tls: TLSContext, trace: TraceSink? = nil,
                username: String, password: String, resource: String?,
                failed: @escaping (Endpoint, ConnectionError) -> Void = { _, _ in }) throws(ConnectionError) {
        opening = try StreamOpening(options, endpoints: endpoints, tls: tls, trace: trace, failed: failed)
        request = LoginRequest(username: username, credential: .password(password), usedSCRAMBefore: false, resource: resource)
        policy = nil
    }

    /// Waiting for the policy's turn: nothing to watch; the loop calls `advance` again when
    /// another stream's log-in ended, or at the latest on its next wake.
    public var awaitsTurn: Bool { turnDeadline != nil }

    /// The socket to watch (none while awaiting a turn: poll() skips -1).
    public var fileDescriptor: Int32 { opening?.fileDescriptor ?? logIn?.fileDescriptor ?? -1 }

    /// Whether the socket is watched for `POLLOUT` (a connect under way) rather than `POLLIN`.
    public var wantsWrite: Bool { opening?.wantsWrite ?? false }

    /// When the step under way is given up (`options.timeout` after the last one).
    public var deadline: ContinuousClock.Instant { opening?.deadline ?? logIn?.deadline ?? turnDeadline ?? .now }

    /// The server refused the password before its first SCRAM challenge (see `Connection`).
    public var refusedBeforeChallenge: Bool { connection?.refusedBeforeChallenge ?? false }

    /// Takes every step the socket allows now. The connection once set up, nil while it waits
    /// for the socket or its turn; a failure is thrown (the socket is then closed): a
    /// `ConnectionError`, or the policy's own (a stored session that cannot be used).
    public func advance() throws -> PolledConnection? {
        do {
            if let opening {
                guard let opened = try opening.advance() else { return nil }
                self.opening = nil
                connection = opened
                if let request { logIn = try StreamLogIn(opened, request, saslOnly: true) }
                if policy != nil { turnDeadline = .now + opened.options.timeout }
            }
            guard let connection else { return nil }
            if let policy, turnDeadline != nil {
                guard let request = try policy.begin() else { return nil }
                turnDeadline = nil
                holdsTurn = true
                logIn = try StreamLogIn(connection, request)
            }
            if let logIn {
                guard let outcome = try logIn.advance() else { return nil }
                self.logIn = nil
                if holdsTurn, let policy {
                    holdsTurn = false
                    try policy.succeeded(outcome)
                }
            }
            return PolledConnection.wrapping(connection)
        } catch {
            close()
            throw error
        }
    }

    /// The deadline passed: the next endpoint if the step was still on the link, else the error.
    public func expire() throws(ConnectionError) {
        do throws(ConnectionError) {
            if let opening { try opening.expire() } else if let logIn { try logIn.expire() } else if turnDeadline != nil {
                throw .timedOut("waiting for the account's session, in use by another stream or program")
            }
        } catch {
            close()
            throw error
        }
    }

    /// Closes the socket (a setup given up).
    public func close() {
        guard !closed else { return }
        closed = true
        if holdsTurn {
            holdsTurn = false
            policy?.failed()
        }
        if let connection { connection.close() } else { opening?.close() }
    }
}
