import XMPPConnection
import XMPPStanzas

/// Where a domain's server is and how to trust it (the command line decides both, from its
/// options and remembered settings), and where `--trace` goes: one sink per connection.
public struct BatchEndpoint: Sendable {
    /// Host, port, direct TLS, timeout.
    public var options: ConnectionOptions
    /// The process's TLS context for this domain's trust settings.
    public var tls: TLSContext
    /// A trace sink for a new connection, or nil without `--trace`.
    public var trace: @Sendable () -> TraceSink?

    /// Builds an endpoint.
    public init(options: ConnectionOptions, tls: TLSContext, trace: @escaping @Sendable () -> TraceSink? = { nil }) {
        self.options = options
        self.tls = tls
        self.trace = trace
    }
}

/// The administrator whose streams run `--admin` batches: where their server is, and the
/// session policy (cached SCRAM keys, or a FAST token taken by one stream at a time) each
/// stream's log-in follows, as steps on the engine's poll loop.
public struct AdminSession: Sendable {
    /// The administrator's bare JID.
    public var jid: JID
    /// Makes the policy a run's streams share (called on the run's own thread).
    public var policy: @Sendable () throws -> LoginPolicy
    /// The caller's words for a run ended by the administrator's log-in (a refused or unusable
    /// session); other errors are returned as they are.
    public var failure: @Sendable (any Error) -> any Error

    /// Builds a session.
    public init(jid: JID, policy: @escaping @Sendable () throws -> LoginPolicy,
                failure: @escaping @Sendable (any Error) -> any Error = { $0 }) {
        self.jid = jid
        self.policy = policy
        self.failure = failure
    }
}

/// Runs a plan: the registration engine per domain (rows keep their order within a domain),
/// then the log-in phase for follow-ups; for `--delete` and `--passwd`, the log-in phase only.
/// Both use `--jobs` streams at once.
struct BatchRunner {
    let configuration: BatchConfiguration
    let recorder: BatchRecorder
    let shouldStop: @Sendable () -> Bool
    var admin: AdminSession?

    func run(_ plan: BatchPlan, endpoint: (_ domain: String) throws -> BatchEndpoint) throws -> BatchEnd {
        var settings = EngineSettings()
        settings.jobs = configuration.jobs
        // At most ~256 requests in flight in all: a server working through them at a few hundred
        // a second answers the last well within the timeout.
        settings.window = max(1, min(configuration.window, 256 / configuration.jobs))
        settings.timeout = .seconds(configuration.timeout)
        settings.giveUpAfter = .seconds(max(60, 8 * configuration.timeout))
        settings.onExists = configuration.onExists
        settings.maxStreamAge = .seconds(configuration.maxStreamAge)
        settings.shouldStop = shouldStop
        let mode = configuration.mode
        let avatars = ResizedAvatars()  // one per run, across domains
        var followUps = plan.followUps

        // One spread per domain for all its phases: an endpoint that failed for the
        // registrations is still backing off when the log-ins and the rosters start.
        var spreads: [String: EndpointSpread] = [:]
        func endpointSpread(for domain: String) throws -> EndpointSpread {
            if let known = spreads[domain] { return known }
            let server = try endpoint(domain)
            let made = EndpointSpread(options: server.options, tls: server.tls, trace: server.trace, streams: configuration.jobs)
            spreads[domain] = made
            return made
        }
        let domains = BatchRunner.domains(of: plan.work + plan.followUps.map(\.item))
        for domain in domains {
            let spread = try endpointSpread(for: domain)
            // One domain (the usual batch): the plan's own list, shared, not a copy of every row.
            let items = domains.count == 1 ? plan.work : plan.work.filter { $0.row.jid.domain == domain }
            if let admin, !items.isEmpty {
                // The administrator's own server carries the commands for every domain it serves.
                let homeSpread = try endpointSpread(for: admin.jid.domain)
                let rounds = try runAdminRounds(items, admin: admin, homeSpread: homeSpread, spread: spread,
                                                settings: settings, avatars: avatars)
                followUps += rounds.followUps
                if rounds.end == .interrupted { return .interrupted }
            } else if mode == .create && !items.isEmpty {
                let engine = BatchEngine(kind: RegistrationRequests(), items: items, settings: settings, recorder: recorder,
                                         spread: spread) { stream throws(ConnectionError) in try spread.startOpening(stream: stream) }
                let end = try engine.run()
                let learned = engine.items
                followUps += engine.followUps.map { (item: learned[$0], task: BatchPlan.followUpTask(learned[$0])) }
                followUps += engine.profileFollowUps.map { (item: learned[$0], task: LoginPhase.Task.profile) }
                if end == .interrupted { return .interrupted }
            }
            var tasks = followUps.filter { $0.item.row.jid.domain == domain }
            if mode != .create && admin == nil {
                tasks += items.map { (item: $0, task: mode == .delete ? LoginPhase.Task.delete : .passwd) }
            }
            guard !tasks.isEmpty else { continue }
            let phase = loginPhase(spread, settings, avatars)
            if try phase.run(tasks) == .interrupted { return .interrupted }
        }
        guard !plan.rosterRows.isEmpty else { return .completed }
        for row in plan.rosterRows.values { _ = try endpointSpread(for: row.jid.domain) }
        let rosterSpreads = spreads
        let memory = configuration.rosterMemoryPath.flatMap { RosterMemory(path: $0) }
        let resource = configuration.resource
        let rosters = RosterPhase(plan: plan, settings: settings, recorder: recorder, resource: resource, memory: memory,
                                  logIn: { domain, username, password throws(ConnectionError) in
                                      guard let spread = rosterSpreads[domain] else {
                                          throw .protocolViolation("no endpoint for \(domain)")
                                      }
                                      return try spread.startLogIn(username: username, password: password, resource: resource)
                                  },
                                  bound: { link in rosterSpreads[link.connection.domain]?.bound(link) })
        return try rosters.run()
    }

    /// `--admin` over `items`: the admin engine, then rows whose add-user may have reached the
    /// server unanswered (an earlier run's, or this one's on a stream that dropped) logged into
    /// before they are sent again; those whose password does not log in go to the next round.
    private func runAdminRounds(_ items: [WorkItem], admin: AdminSession, homeSpread: EndpointSpread, spread: EndpointSpread,
                                settings: EngineSettings, avatars: ResizedAvatars)
        throws -> (end: BatchEnd, followUps: [(item: WorkItem, task: LoginPhase.Task)]) {
        let mode = configuration.mode
        // Named in the stream header: servers offer SASL2 and FAST only to a stream that names its user.
        let account = admin.jid.bare.description
        let checkedFirst = { (item: WorkItem) in
            item.uncertain && AdminRequests.logsInBeforeResending(item, mode: mode, invite: self.configuration.invite)
        }
        var followUps: [(item: WorkItem, task: LoginPhase.Task)] = []
        var check = items.filter(checkedFirst)
        // Nothing to check first (a fresh run): the rows themselves, shared, not a copy.
        var round = check.isEmpty ? items : items.filter { !checkedFirst($0) }
        var rounds = 0
        let policy = try admin.policy()
        while true {
            if !round.isEmpty {
                let engine = BatchEngine(kind: AdminRequests(mode: mode, invite: configuration.invite), items: round,
                                         settings: settings, recorder: recorder, spread: homeSpread,
                                         connect: { stream throws(ConnectionError) in
                                             try homeSpread.startLogIn(stream: stream, account: account, policy: policy)
                                         })
                let end: BatchEnd
                do { end = try engine.run() } catch { throw admin.failure(error) }
                let learned = engine.items
                followUps += engine.followUps.map { (item: learned[$0], task: BatchPlan.followUpTask(learned[$0])) }
                followUps += engine.profileFollowUps.map { (item: learned[$0], task: LoginPhase.Task.profile) }
                if end == .interrupted { return (.interrupted, followUps) }
                check += engine.kind.checkFirst.map { learned[$0] }
            }
            guard !check.isEmpty else { return (.completed, followUps) }
            rounds += 1
            if rounds > settings.maxAttempts {
                try recorder.commit(check.map {
                    RowOutcome(line: $0.row.line, jid: $0.row.jid.description, status: .failed,
                               error: "gave up after \(rounds - 1) attempts: its requests went unanswered",
                               retryable: true, uncertain: true)
                })
                return (.completed, followUps)
            }
            let checker = loginPhase(spread, settings, avatars)
            if try checker.run(check.map { (item: $0, task: LoginPhase.Task.checkBeforeResend) }) == .interrupted {
                return (.interrupted, followUps)
            }
            round = checker.toResend
            check = []
        }
    }

    /// The log-in phase over `spread`'s endpoints.
    private func loginPhase(_ spread: EndpointSpread, _ settings: EngineSettings, _ avatars: ResizedAvatars) -> LoginPhase {
        let resource = configuration.resource
        return LoginPhase(settings: settings, recorder: recorder, avatars: avatars,
                          logIn: { username, password throws(ConnectionError) in
                              try spread.startLogIn(username: username, password: password, resource: resource)
                          },
                          bound: { link in spread.bound(link) })
    }

    /// The distinct domains of `items`, in first-seen order.
    static func domains(of items: [WorkItem]) -> [String] {
        var seen: Set<String> = []
        return items.map(\.row.jid.domain).filter { seen.insert($0).inserted }
    }
}
