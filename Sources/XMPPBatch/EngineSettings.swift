/// Tuning and policy of a batch's network phases (the request engine, log-ins, rosters).
struct EngineSettings {
    var jobs = 4
    var window = 4
    var timeout: Duration = .seconds(15)
    /// Requests per row in one run before it is reported failed (retryable).
    var maxAttempts = 10
    /// Stop when nothing moved for this long (the rows stay resumable).
    var giveUpAfter: Duration = .seconds(120)
    var onExists: ExistsPolicy = .skip
    /// Unauthenticated streams are replaced after this long: servers close them after a while
    /// (Prosody's c2s_timeout, 300 s), and a planned close loses no request.
    var maxStreamAge: Duration = .seconds(240)
    var backoff = Backoff()
    /// Asked between steps: stop taking rows, await what is in flight (Ctrl-C, SIGTERM).
    var shouldStop: @Sendable () -> Bool = { false }
}
