import Glibc

/// The one policy for streams that fail for the server's reasons rather than the account's:
/// which failures a fresh stream can mend, and how many fresh streams a log-in may cost.
public enum StreamRetry {
    /// A stream error `internal-server-error` (RFC 6120 §4.9.3.8): the server's own fault,
    /// worth one more stream. Some servers close a stream opened in quick succession with
    /// another so, at STARTTLS or at SASL, now and then (DESIGN-NOTES "Servers").
    public static func isTransientServerFault(_ error: ConnectionError) -> Bool {
        if case .stream(let e) = error { return e.condition == "internal-server-error" }
        return false
    }

    /// Runs `attempt` on fresh streams: first `pipelined` as asked (what the server offered
    /// last time sent ahead of its features); when the server's offer changed from the one
    /// remembered (`SASLError.rememberedOfferChanged`), once more unpipelined; after a
    /// transient server fault, once more after 200 ms. Each mend at most once, so a log-in costs
    /// at most three streams, and nothing else is retried: a refusal is the account's answer.
    public static func run<T>(pipelined: Bool, _ attempt: (_ pipelined: Bool) throws -> T) throws -> T {
        var pipelined = pipelined
        var retriedFault = false
        while true {
            do {
                return try attempt(pipelined)
            } catch {
                guard let failure = error as? ConnectionError else { throw error }
                if pipelined, case .sasl(.rememberedOfferChanged) = failure {
                    pipelined = false
                    continue
                }
                guard !retriedFault, isTransientServerFault(failure) else { throw error }
                retriedFault = true
                usleep(200_000)
            }
        }
    }
}
