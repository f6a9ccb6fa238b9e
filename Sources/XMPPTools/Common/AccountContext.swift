import Glibc
import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// Everything a command needs to reach the server as an account: which account, where its
/// server is, how to trust it, and its cached session.
public struct AccountContext {
    /// The tool's environment.
    public let environment: ToolEnvironment
    /// The common options given on the command line.
    public let common: CommonOptions
    /// Where a password for this run comes from, for a command that accepts one in place of the
    /// cached session (`PasswordSource.declarations`); nil for the others.
    public var passwordForRun: PasswordSource?

    /// Builds a context.
    public init(environment: ToolEnvironment, common: CommonOptions) {
        self.environment = environment
        self.common = common
    }

    /// The account in use: `--account`, then `XMPP_ACCOUNT` (both already folded into
    /// `common.account`), then the active account of `accounts.json`.
    public func accountJID() throws -> JID {
        if let text = common.account { return try parseAccount(text) }
        guard let active = try environment.accounts.load().active else {
            throw ToolFailure(.auth, "no account: log in first with 'xmpp-login JID', or pass --account")
        }
        return try parseAccount(active)
    }

    private func parseAccount(_ text: String) throws -> JID { try Self.parseAccountJID(text, what: "account") }

    /// An account's bare JID from `text`, which needs both parts; `what` names it in errors.
    static func parseAccountJID(_ text: String, what: String) throws(ToolFailure) -> JID {
        if !text.isEmpty, !text.contains("@"), !text.contains("/") {
            throw ToolFailure(.badInput, "\(what) '\(text)' has no domain: add @ and the server's domain, as in \(text)@example.org")
        }
        let jid: JID
        do { jid = try JID(text) } catch { throw ToolFailure(.badInput, "invalid \(what) '\(text)': \(error)") }
        guard jid.local != nil else { throw ToolFailure(.badInput, "invalid \(what) '\(text)': it needs a user part (user@domain)") }
        return jid.bare
    }

    /// Connection settings for this run: what `xmpp-login` remembered, with the command line's
    /// groups replacing theirs. Where to connect is one group (`--server`, `--direct-tls`), whom
    /// to trust another (`--ca-file`, `--pin`, `--insecure`): any option of a group replaces all
    /// of that group, so a remembered `--direct-tls` cannot apply to a new `--server`, nor a
    /// remembered `--pin` linger beside a new `--ca-file`.
    public func settings(for jid: JID, stored: AccountSettings?) throws(ToolFailure) -> AccountSettings {
        var s = stored ?? AccountSettings()
        s.insecure = false
        if common.serverHost != nil || common.directTLS {
            s.server = common.serverHost
            s.port = common.serverPort
            s.fallbackServers = common.moreServers.map { FallbackServer(host: $0.host, port: $0.port) }
            s.directTLS = common.directTLS
        }
        if common.caFile != nil || common.pin != nil || common.insecure {
            s.caFile = common.caFile.map(absolutePath)
            if let pin = common.pin { try CommonOptions.validatePin(pin) }
            s.pin = common.pin
            s.insecure = common.insecure
        }
        return s
    }

    /// What `xmpp-login` keeps after a login with `used` settings over `stored` ones: everything
    /// but `--insecure`, which applies to its own run only, so the trust it replaced stays.
    public static func remembered(_ used: AccountSettings, over stored: AccountSettings?) -> AccountSettings {
        var kept = used
        kept.usedSCRAM = true
        if used.insecure {
            kept.insecure = false
            kept.caFile = stored?.caFile
            kept.pin = stored?.pin
        }
        return kept
    }

    /// Opens a TLS-secured, unauthenticated connection to `domain`'s server; `account` goes into
    /// the stream header under TLS (servers offer FAST only to a stream that names its user).
    /// A transient server fault costs one more stream (`StreamRetry`).
    public func open(domain: String, settings: AccountSettings, account: JID? = nil) throws -> Connection {
        try StreamRetry.run(pipelined: false) { _ in
            try openStream(domain: domain, settings: settings, account: account, pipelined: false)
        }
    }

    /// One stream, without retry: for log-ins, whose `StreamRetry` owns every retry.
    /// `pipelined`: a session log-in to a server it knows (`ConnectionOptions.pipelined`).
    func openStream(domain: String, settings: AccountSettings, account: JID?, pipelined: Bool) throws -> Connection {
        if settings.insecure {
            environment.alarm("WARNING: --insecure: the server certificate is NOT verified; anyone on the path can read and change this session")
        }
        let tls = try environment.tlsContext(TLSSettings(caFile: settings.caFile, pin: settings.pin, insecure: settings.insecure))
        let options = ConnectionOptions(domain: domain, serverHost: settings.server, serverPort: settings.port,
                                        moreServers: moreServers(for: settings), directTLS: settings.directTLS,
                                        timeout: .seconds(common.timeout), account: account?.bare.description,
                                        pipelined: pipelined)
        return try Connection.open(options, tls: tls, trace: TraceOutput.sink(enabled: common.trace))
    }

    /// The `--server` values after the first, tried in order when the ones before cannot be
    /// reached: the command line's, or those `xmpp-login` remembered with the first.
    func moreServers(for settings: AccountSettings) -> [ServerAddress] {
        settings.fallbackServers.map { ServerAddress(host: $0.host, port: $0.port) }
    }

    private func absolutePath(_ path: String) -> String {
        PathText.absolute(path, from: environment.currentDirectory)
    }
}
