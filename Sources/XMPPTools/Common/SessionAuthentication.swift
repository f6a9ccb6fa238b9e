#if canImport(Glibc)
import Glibc
#endif
import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// How a run authenticates as its account (ARCHITECTURE.md §4): with a password given for the
/// run when the command accepts one, else with the account's session, whatever its kind.
enum RunCredential {
    /// Cached SCRAM keys.
    case keys(SCRAMKeys)
    /// A password, and where it came from (named when the server refuses it).
    case password(String, origin: Origin)

    /// Where a password came from.
    enum Origin: Equatable {
        /// `--password-file`, `--password-stdin` or `XMPP_PASSWORD`, for this run only.
        case givenForRun
        /// The session's password command.
        case command(String)
    }

    /// The credential for `jid`: the run's password if one is given, else the session's.
    static func resolve(jid: JID, passwordForRun: PasswordSource?, session: StoredSession?,
                        timeout: Duration) throws -> RunCredential {
        if let source = passwordForRun, source.isGiven {
            return .password(try source.read(prompt: "Password for \(jid): "), origin: .givenForRun)
        }
        guard let session else {
            let oneShot = passwordForRun == nil ? "" : ", or give the password for this run (--password-file FILE, --password-stdin or XMPP_PASSWORD)"
            throw ToolFailure(.auth, "no session for \(jid): log in with 'xmpp-login \(jid)'\(oneShot)")
        }
        switch session.kind {
        case .scramKeys:
            return .keys(try SessionKeys.keys(from: session))
        case .passwordCommand:
            let command = session.passwordCommand ?? ""
            return .password(try PasswordCommand(command: command, timeout: timeout).password(), origin: .command(command))
        }
    }

    /// What the SASL layer takes.
    var scram: SCRAMCredential {
        switch self {
        case .keys(let keys): return .keys(keys)
        case .password(let password, _): return .password(password)
        }
    }

    /// What a log-in (SASL2 or RFC 6120 SASL) takes.
    var login: LoginCredential {
        switch self {
        case .keys(let keys): return .keys(keys)
        case .password(let password, _): return .password(password)
        }
    }

    /// The tool's words for the server refusing this credential.
    func rejection(_ error: ConnectionError, jid: JID) -> ToolFailure? {
        switch self {
        case .keys:
            guard error.isAuthRejection else { return nil }
            return ToolFailure(.auth, "the server rejected the cached session for \(jid) (password changed?): log in again with 'xmpp-login \(jid)'")
        case .password(_, .givenForRun):
            return ErrorMapping.passwordRejection(error, jid: jid.description)
        case .password(_, .command(let command)):
            guard let refusal = ErrorMapping.passwordRejection(error, jid: jid.description) else { return nil }
            return ToolFailure(refusal.code, refusal.message + "; the password came from the password command '\(command)'")
        }
    }
}

extension AccountContext {
    /// Connects as the account and binds a resource: with the password given for this run, if
    /// the command accepts one and it is given (nothing is read from or written to the session
    /// store), else with the cached session: its FAST token (rotated and stored under the
    /// account's lock), its SCRAM keys, or the password its command prints. SASL2 with Bind 2
    /// where the server offers it; PLAIN only over TLS and never for an account that has used
    /// SCRAM (§4).
    public func connectWithSession() throws -> (Connection, JID) {
        let jid = try accountJID()
        let oneShot = passwordForRun?.isGiven ?? false
        let cached = oneShot ? nil : try environment.sessions.loadCached(jid)
        let stored = try environment.accounts.load().accounts[jid.description]
        let settings = try settings(for: jid, stored: stored)
        if case .fast? = cached { return try connectWithToken(jid: jid, settings: settings) }
        var session: StoredSession?
        if case .scramKeys(let s)? = cached { session = s }
        let credential = try RunCredential.resolve(jid: jid, passwordForRun: passwordForRun, session: session,
                                                   timeout: .seconds(common.timeout))
        let usedSCRAM: Bool
        if case .keys = credential { usedSCRAM = true } else { usedSCRAM = stored?.usedSCRAM ?? false }
        // Cached keys know the server: <starttls/> rides with the first header, and where they
        // last went over SASL2, <authenticate/> with the header after TLS.
        var keysSession: StoredSession?
        if case .keys = credential { keysSession = session }
        let request = LoginRequest(username: jid.local ?? "", credential: credential.login,
                                   usedSCRAMBefore: usedSCRAM, resource: common.resource,
                                   expectedMechanism: keysSession.flatMap { $0.sasl2 ? $0.mechanism : nil })
        var connection: Connection, outcome: LoginOutcome
        do {
            (connection, outcome) = try StreamRetry.run(pipelined: keysSession != nil) { pipelined in
                let connection = try openStream(domain: jid.domain, settings: settings, account: jid, pipelined: pipelined)
                do { return (connection, try connection.logIn(request)) } catch {
                    connection.close()
                    throw error
                }
            }
        } catch let error as ConnectionError {
            if case .sasl(.plainRefusedAfterSCRAM) = error { throw DowngradeRefusal.failure(jid) }
            if let rejection = credential.rejection(error, jid: jid) { throw rejection }
            throw error
        }
        if stored != nil, !usedSCRAM, outcome.mechanism != "PLAIN" { try rememberSCRAM(jid) }
        if let keysSession, keysSession.sasl2 != outcome.usedSASL2 || keysSession.mechanism != outcome.mechanism {
            try rememberOffer(mechanism: outcome.mechanism, sasl2: outcome.usedSASL2, for: keysSession)
        }
        return (connection, jid)
    }

    /// Records in the keys' session file what the server now offers (SASL2 or not, the mechanism
    /// the keys went with), so the next run pipelines `<authenticate/>` for that, or not at all;
    /// a file replaced meanwhile is left alone.
    private func rememberOffer(mechanism: String, sasl2: Bool, for session: StoredSession) throws {
        let sessions = environment.sessions
        try sessions.withSessionLock(session.jid) {
            guard case .scramKeys(var current)? = try sessions.loadCached(session.jid), current.clientKey == session.clientKey else { return }
            current.sasl2 = sasl2
            current.mechanism = mechanism
            try sessions.save(current)
        }
    }

    /// Marks `jid` as having used SCRAM, so a later offer of PLAIN alone is refused as a
    /// downgrade: a password-command session that began on a PLAIN-only server and later
    /// authenticated with SCRAM must not fall back silently.
    private func rememberSCRAM(_ jid: JID) throws {
        try environment.accounts.update { file in
            guard var settings = file.accounts[jid.description], !settings.usedSCRAM else { return }
            settings.usedSCRAM = true
            file.accounts[jid.description] = settings
        }
    }

    /// The FAST path: the token authenticates (one round trip), the rotated one is stored.
    private func connectWithToken(jid: JID, settings: AccountSettings) throws -> (Connection, JID) {
        // A token means the server offered SASL2 with FAST: <starttls/> rides with the first
        // header, <authenticate/> with the one after TLS; features that changed mean one more
        // stream the unpipelined way, whose answer (no FAST: exit 3) is the one that counts.
        try StreamRetry.run(pipelined: true) { pipelined in
            try connectWithToken(jid: jid, settings: settings, pipelined: pipelined)
        }
    }

    private func connectWithToken(jid: JID, settings: AccountSettings, pipelined: Bool) throws -> (Connection, JID) {
        let connection = try openStream(domain: jid.domain, settings: settings, account: jid, pipelined: pipelined)
        let failure: ConnectionError?
        do { failure = try FASTSessionResume.resume(connection, env: environment, jid: jid, resource: common.resource) } catch {
            connection.close()
            throw error
        }
        if let error = failure {
            connection.close()
            if error.isAuthRejection {
                throw ToolFailure(.auth, "the server rejected the cached session for \(jid) (token revoked, expired or password changed?): "
                                  + "log in again with 'xmpp-login \(jid)'")
            }
            throw error
        }
        return (connection, jid)
    }
}
