import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// `xmpp-login JID --password-command CMD`: the password comes from a credential helper, and
/// the session kept is the best one the server allows: SCRAM keys where they authenticate again
/// (then the command is not needed any more), else the command itself, which every tool then
/// runs when it authenticates. Never the password.
enum PasswordCommandLogin {
    /// What the login did, for its report.
    struct Outcome {
        var boundJID: JID
        var mechanism: String
        var tlsVersion: TLSVersion
        var endpoint: Endpoint
        var kind: SessionKind
        /// The server's XEP-0474 hash was present and matched.
        var downgradeProtected = false
    }

    /// The way forward named where SCRAM keys cannot be cached.
    static func hint(_ jid: JID) -> String {
        "log in with --password-command 'COMMAND' (such as 'pass show xmpp/\(jid.local ?? "account")' or "
            + "'secret-tool lookup xmpp \(jid)') to have every tool ask that password manager instead"
    }

    /// Runs `command` for the password, authenticates (SCRAM preferred; PLAIN over TLS only for an
    /// account that never used SCRAM), binds, and saves the best session the server allows.
    static func login(context: AccountContext, jid: JID, settings: AccountSettings, command: String) throws -> Outcome {
        let helper = PasswordCommand(command: command, timeout: .seconds(context.common.timeout))
        let password = try helper.password()
        let connection = try context.open(domain: jid.domain, settings: settings, account: jid)
        defer { connection.close() }
        let authenticated: AuthenticationOutcome
        do {
            authenticated = try connection.authenticate(username: jid.local ?? "", credential: .password(password),
                                                        usedSCRAMBefore: settings.usedSCRAM)
        } catch {
            if case .sasl(.plainRefusedAfterSCRAM) = error { throw DowngradeRefusal.failure(jid) }
            if let rejection = RunCredential.password(password, origin: .command(command)).rejection(error, jid: jid) {
                throw rejection
            }
            throw error
        }
        let bound = try connection.bind(resource: context.common.resource)
        let tls = connection.tlsVersion ?? .other
        let env = context.environment
        if let keys = authenticated.keys, try PasswordLogin.isResumable(context: context, jid: jid, settings: settings, keys: keys) {
            let result = PasswordLogin.Result(boundJID: bound, mechanism: authenticated.mechanism, session: .scramKeys(keys),
                                              tlsVersion: tls, endpoint: connection.endpoint, downgradeProtected: connection.downgradeProtected)
            try PasswordLogin.saveSession(env: env, jid: jid, settings: settings, result: result, makeActive: true)
            return Outcome(boundJID: bound, mechanism: authenticated.mechanism, tlsVersion: tls, endpoint: connection.endpoint,
                           kind: .scramKeys, downgradeProtected: connection.downgradeProtected)
        }
        try env.sessions.save(StoredSession(jid: jid, passwordCommand: command, created: env.now))
        let usedSCRAM = authenticated.keys != nil
        try env.accounts.update { file in
            var kept = AccountContext.remembered(settings, over: file.accounts[jid.description])
            kept.usedSCRAM = usedSCRAM || settings.usedSCRAM
            file.accounts[jid.description] = kept
            file.active = jid.description
        }
        return Outcome(boundJID: bound, mechanism: authenticated.mechanism, tlsVersion: tls, endpoint: connection.endpoint,
                       kind: .passwordCommand, downgradeProtected: connection.downgradeProtected)
    }
}
