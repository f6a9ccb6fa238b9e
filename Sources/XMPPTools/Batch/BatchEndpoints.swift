import XMPPBatch
import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// Where the batch engine connects for each domain: the command line's connection and trust
/// options, else, for the administrator's own domain (`--admin`, `--invite`), what
/// `xmpp-login` remembered for the administrator (`--server`, `--direct-tls`, `--ca-file`,
/// `--pin`): the server the administrator's session was made with is the one its streams need.
/// Other domains use no remembered settings. Also the process's TLS context, and `--trace`.
/// `--insecure` is announced once per run, even with `-q`.
final class BatchEndpoints {
    private let context: AccountContext
    private let administrator: (jid: JID, settings: AccountSettings)?
    private var warnedInsecure = false

    init(context: AccountContext, administrator: (jid: JID, settings: AccountSettings)? = nil) {
        self.context = context
        self.administrator = administrator
    }

    func endpoint(for domain: String) throws -> BatchEndpoint {
        let stored = administrator.flatMap { $0.jid.domain == domain ? $0.settings : nil }
        let settings = try context.settings(for: try JID(domain), stored: stored)
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
