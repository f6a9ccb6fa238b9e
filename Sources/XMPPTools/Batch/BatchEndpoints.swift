import XMPPBatch
import XMPPConnection
import XMPPStanzas

/// Where the batch engine connects for each domain: the command line's connection and trust
/// options (a batch uses no remembered settings), the process's TLS context, and `--trace`.
/// `--insecure` is announced once per run, even with `-q`.
final class BatchEndpoints {
    private let context: AccountContext
    private var warnedInsecure = false

    init(context: AccountContext) { self.context = context }

    func endpoint(for domain: String) throws -> BatchEndpoint {
        let settings = try context.settings(for: try JID(domain), stored: nil)
        if settings.insecure && !warnedInsecure {
            context.environment.alarm("WARNING: --insecure: the server certificate is NOT verified; anyone on the path can read the passwords of this batch")
            warnedInsecure = true
        }
        let tls = try context.environment.tlsContext(TLSSettings(caFile: settings.caFile, pin: settings.pin, insecure: settings.insecure))
        let options = ConnectionOptions(domain: domain, serverHost: settings.server, serverPort: settings.port,
                                        moreServers: context.moreServers(for: settings), directTLS: settings.directTLS,
                                        timeout: .seconds(context.common.timeout))
        let traceEnabled = context.common.trace
        return BatchEndpoint(options: options, tls: tls, trace: { TraceOutput.sink(enabled: traceEnabled) })
    }
}
