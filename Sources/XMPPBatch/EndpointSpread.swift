import XMPPConnection

/// Opens a batch's connections over its endpoints (`EndpointPool`): each stream connects to
/// its home endpoint, or, while that one backs off, to the next healthy one; a refused connect
/// or a dropped stream sends the endpoint into back-off, so its work moves to the others.
/// Shared by the request engine's streams and the per-account log-ins (`AccountSessions`), all
/// on the batch's one thread.
final class EndpointSpread {
    private var pool: EndpointPool
    private let options: ConnectionOptions
    private let tls: TLSContext
    private let trace: @Sendable () -> TraceSink?
    private let backoff: Backoff

    /// A spread over `options.resolveTargets()` (the `--server` values, or the domain's SRV targets).
    init(options: ConnectionOptions, tls: TLSContext, trace: @escaping @Sendable () -> TraceSink?, streams: Int,
         backoff: Backoff = Backoff(base: .seconds(1), maximum: .seconds(30))) {
        self.options = options
        self.tls = tls
        self.trace = trace
        self.backoff = backoff
        pool = EndpointPool(targets: options.resolveTargets(), streams: streams, now: .now)
    }

    /// How many endpoints there are.
    var count: Int { pool.members.count }

    /// The endpoints to try for `stream` (nil: a connection of its own, the next home in turn).
    func order(for stream: Int?) -> [Endpoint] {
        let home = pool.home(of: stream)
        return pool.order(home: home, now: .now).map { pool.members[$0].target.endpoint }
    }

    /// The setup of a multiplexed stream for `stream`, with `account` named in its header if given.
    func startOpening(stream: Int, account: String? = nil) throws(ConnectionError) -> PolledSetup {
        var options = self.options
        if let account { options.account = account }
        return try PolledSetup(opening: options, endpoints: order(for: stream), tls: tls, trace: trace(),
                               failed: { endpoint, _ in self.lost(endpoint) })
    }

    /// Stream number `stream`, opened naming `account` and logged in with its session as
    /// `policy` says (the administrator's streams), set up as the socket allows.
    func startLogIn(stream: Int, account: String, policy: LoginPolicy) throws(ConnectionError) -> PolledSetup {
        var options = self.options
        options.account = account
        return try PolledSetup(options, endpoints: order(for: stream), tls: tls, trace: trace(), policy: policy,
                               failed: { endpoint, _ in self.lost(endpoint) })
    }

    /// A log-in as `username` that never waits (per-account work on a poll loop), on the next
    /// home in turn; `bound` is to be told when it is.
    func startLogIn(username: String, password: String, resource: String?) throws(ConnectionError) -> PolledSetup {
        try PolledSetup(options, endpoints: order(for: nil), tls: tls, trace: trace(), username: username, password: password,
                        resource: resource, failed: { endpoint, _ in self.lost(endpoint) })
    }

    /// A stream set up by `startOpening` or `startLogIn` is ready: its endpoint answered.
    func bound(_ link: PolledConnection) { answered(link.connection.endpoint) }

    /// `endpoint` refused, timed out or dropped a stream; true when it just went into back-off.
    @discardableResult
    func lost(_ endpoint: Endpoint) -> Bool {
        guard let index = pool.index(of: endpoint) else { return false }
        return pool.failed(index, now: .now, delay: { backoff.delay(failures: $0) })
    }

    private func answered(_ endpoint: Endpoint) {
        if let index = pool.index(of: endpoint) { pool.succeeded(index) }
    }
}
