import XMPPConnection
import XMPPStanzas

/// Runs a plan: the registration engine per domain (rows keep their order within a domain),
/// then the log-in phase for follow-ups; for `--delete` and `--passwd`, the log-in phase only.
/// Both use `--jobs` streams at once.
struct BatchRunner {
    let context: AccountContext
    let options: BatchOptions
    let recorder: BatchRecorder

    func run(_ plan: BatchPlan) throws -> RegistrationEngine.End {
        var settings = RegistrationEngine.Settings()
        settings.jobs = options.jobs
        // At most ~256 requests in flight in all: a server working through them at a few hundred
        // a second answers the last well within the timeout.
        settings.window = max(1, min(options.window, 256 / options.jobs))
        settings.timeout = .seconds(context.common.timeout)
        settings.giveUpAfter = .seconds(max(60, 8 * context.common.timeout))
        settings.onExists = options.onExists
        settings.maxStreamAge = .seconds(options.maxStreamAge)
        var warnedInsecure = false
        let avatars = ResizedAvatars()  // one per run, across domains
        var followUps = plan.followUps

        for domain in BatchRunner.domains(of: plan.work + plan.followUps.map(\.item)) {
            let (connection, tls) = try endpoint(domain, warnedInsecure: &warnedInsecure)
            let trace = TraceOutput.sink(enabled: context.common.trace)
            let items = plan.work.filter { $0.row.jid.domain == domain }
            if options.mode == .create && !items.isEmpty {
                let engine = RegistrationEngine(items: items, settings: settings, recorder: recorder) { () throws(ConnectionError) in
                    try PolledConnection.open(connection, tls: tls, trace: trace)
                }
                let end = try engine.run()
                let learned = engine.workItems
                followUps += engine.followUps.map { (item: learned[$0], task: BatchPlan.followUpTask(learned[$0])) }
                followUps += engine.profileFollowUps.map { (item: learned[$0], task: LoginPhase.Task.profile) }
                if end == .interrupted { return .interrupted }
            }
            var tasks = followUps.filter { $0.item.row.jid.domain == domain }
            if options.mode != .create {
                tasks += items.map { (item: $0, task: options.mode == .delete ? LoginPhase.Task.delete : .passwd) }
            }
            guard !tasks.isEmpty else { continue }
            let traceEnabled = context.common.trace
            let phase = LoginPhase(settings: settings, recorder: recorder, resource: context.common.resource,
                                   avatars: avatars) { () throws(ConnectionError) in
                try Connection.open(connection, tls: tls, trace: TraceOutput.sink(enabled: traceEnabled))
            }
            if try phase.run(tasks) == .interrupted { return .interrupted }
        }
        return .completed
    }

    /// The distinct domains of `items`, in first-seen order.
    static func domains(of items: [WorkItem]) -> [String] {
        var seen: Set<String> = []
        return items.map(\.row.jid.domain).filter { seen.insert($0).inserted }
    }

    /// Connection options and the process's TLS context for `domain`, from the command line.
    private func endpoint(_ domain: String, warnedInsecure: inout Bool) throws -> (ConnectionOptions, TLSContext) {
        let settings = try context.settings(for: try JID(domain), stored: nil)
        if settings.insecure && !warnedInsecure {
            context.environment.alarm("WARNING: --insecure: the server certificate is NOT verified; anyone on the path can read the passwords of this batch")
            warnedInsecure = true
        }
        let tls = try context.environment.tlsContext(TLSSettings(caFile: settings.caFile, pin: settings.pin, insecure: settings.insecure))
        let options = ConnectionOptions(domain: domain, serverHost: settings.server, serverPort: settings.port,
                                        directTLS: settings.directTLS, timeout: .seconds(context.common.timeout))
        return (options, tls)
    }
}
