import Glibc
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
        // Cached keys remember the offer they last went with (`SessionLogIn` pipelines for it).
        var keysSession: StoredSession?
        if case .keys = credential { keysSession = session }
        let login = SessionLogIn(username: jid.local ?? "", credential: credential.login,
                                 usedSCRAMBefore: stored?.usedSCRAM ?? false,
                                 rememberedOffer: keysSession.map { RememberedOffer(mechanism: $0.mechanism, sasl2: $0.sasl2) },
                                 resource: common.resource)
        let memory = StoredLoginMemory(environment: environment, jid: jid, accountKept: stored != nil, keys: keysSession)
        do {
            let (connection, _) = try login.run(memory: memory) { pipelined in
                try openStream(domain: jid.domain, settings: settings, account: jid, pipelined: pipelined)
            }
            return (connection, jid)
        } catch let error as ConnectionError {
            if case .sasl(.plainRefusedAfterSCRAM) = error { throw DowngradeRefusal.failure(jid) }
            if let rejection = credential.rejection(error, jid: jid) { throw rejection }
            throw error
        }
    }

    /// The FAST path: the token authenticates (one round trip), the rotated one is stored.
    private func connectWithToken(jid: JID, settings: AccountSettings) throws -> (Connection, JID) {
        let store = SessionFileTokens(sessions: environment.sessions, jid: jid,
                                      unwritableReason: environment.sessions.unwritableReason(), warn: environment.warn)
        do {
            let connection = try FASTResume.logIn(username: jid.local ?? "", store: store, resource: common.resource) { pipelined in
                try openStream(domain: jid.domain, settings: settings, account: jid, pipelined: pipelined)
            }
            return (connection, jid)
        } catch let error as ConnectionError where error.isAuthRejection {
            throw ToolFailure(.auth, "the server rejected the cached session for \(jid) (token revoked, expired or password changed?): "
                              + "log in again with 'xmpp-login \(jid)'")
        } catch let error as FASTResumeError {
            throw FASTSessionResume.failure(error, jid: jid)
        }
    }
}

/// An account's log-in memory in its files: whether it used SCRAM in the account's settings
/// (only for an account whose settings are kept), the offer its cached keys went with in the
/// keys' session file (a file replaced meanwhile is left alone).
struct StoredLoginMemory: LoginMemory {
    let environment: ToolEnvironment
    let jid: JID
    /// The account has settings in accounts.json.
    let accountKept: Bool
    /// The session whose keys this log-in used.
    let keys: StoredSession?

    func rememberSCRAM() throws {
        guard accountKept else { return }
        try environment.accounts.update { file in
            guard var settings = file.accounts[jid.description], !settings.usedSCRAM else { return }
            settings.usedSCRAM = true
            file.accounts[jid.description] = settings
        }
    }

    func rememberOffer(_ offer: RememberedOffer) throws {
        guard let keys else { return }
        let sessions = environment.sessions
        try sessions.withSessionLock(keys.jid) {
            guard case .scramKeys(var current)? = try sessions.loadCached(keys.jid), current.clientKey == keys.clientKey else { return }
            current.sasl2 = offer.sasl2
            current.mechanism = offer.mechanism
            try sessions.save(current)
        }
    }
}
