import XMPPBatch

extension BatchRun {
    /// Works through `plan` as `xmpp-register batch` and `sync` do: a first Ctrl-C stops it after
    /// the requests in flight (a second kills), `output` shows the progress, and each domain is
    /// reached through `BatchEndpoints` (the administrator's remembered settings for its own
    /// domain, with `session`). A fatal error is returned, not thrown, so that the run is
    /// finished (journal, report) before it is reported.
    func executeShowingProgress(_ plan: BatchPlan, context: AccountContext, admin session: AdminSession?,
                                output: BatchOutput) throws -> (end: BatchEnd, fatal: (any Error)?) {
        StopSignal.install(secondSignalKills: true)
        output.start(total: plan.toDo)
        let administrator = try session.flatMap { session in
            try context.environment.accounts.load().accounts[session.jid.description].map { (jid: session.jid, settings: $0) }
        }
        let endpoints = BatchEndpoints(context: context, administrator: administrator)
        var end = BatchEnd.completed
        var fatal: (any Error)?
        do {
            end = try execute(plan, endpoint: endpoints.endpoint(for:), events: output, admin: session,
                              shouldStop: { StopSignal.stopRequested })
        } catch {
            fatal = error
        }
        output.progress(finishedThisRun, force: true)
        output.clearBar()
        return (end, fatal)
    }
}
