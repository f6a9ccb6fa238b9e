import TextFormats
import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// A login with the password, shared by `xmpp-login`, `xmpp-register --login` and `passwd`:
/// authenticate once (SCRAM only: the password is never sent as PLAIN here), asking for a FAST
/// token where the server offers one, prove the token or the derived keys work on a fresh
/// stream, and store them (never the password) with the account's settings.
enum PasswordLogin {
    /// What a login leaves to cache.
    enum NewSession {
        /// SCRAM keys.
        case scramKeys(SCRAMKeys)
        /// A FAST token, its mechanism and the client id it is tied to.
        case fast(FASTMechanism, FASTToken, userAgentID: String)

        /// The kind's stable name (`session_kind`).
        var kindName: String {
            switch self {
            case .scramKeys: "scram-keys"
            case .fast: FASTSession.kindName
            }
        }
    }

    /// What a password login produced.
    struct Result {
        var boundJID: JID
        var mechanism: String
        var session: NewSession
        var tlsVersion: TLSVersion
        var endpoint: Endpoint
        /// The server's XEP-0474 hash was present and matched.
        var downgradeProtected = false
        /// The log-in went over SASL2.
        var usedSASL2 = false
    }

    /// Parses an account JID, which needs a user part.
    static func accountJID(_ text: String) throws -> JID { try AccountContext.parseAccountJID(text, what: "JID") }

    /// Connects, authenticates with the password, binds, and returns what to cache.
    static func authenticate(context: AccountContext, jid: JID, settings: AccountSettings, password: String,
                             kind: SessionKindChoice = .auto) throws -> Result {
        let connection = try context.open(domain: jid.domain, settings: settings, account: jid)
        defer { connection.close() }
        if kind == .fast, connection.features.sasl2?.fastMechanisms == nil {
            throw ToolFailure(.auth, "\(jid.domain) offers no FAST tokens (XEP-0484) to this client; log in with --session scram-keys or auto (the password was not sent)")
        }
        let wantsToken = kind != .scramKeys
        let userAgentID = UserAgentID.make()
        let outcome: LoginOutcome
        do {
            outcome = try connection.logIn(LoginRequest(
                username: jid.local ?? "", credential: .password(password), usedSCRAMBefore: settings.usedSCRAM,
                requireSCRAM: true, resource: context.common.resource, userAgentID: wantsToken ? userAgentID : nil,
                requestToken: wantsToken))
        } catch {
            if case .sasl(.scramRequired) = error { throw noSCRAM(jid) }
            if let rejection = ErrorMapping.passwordRejection(error, jid: jid.description) { throw rejection }
            throw error
        }
        let bound = outcome.boundJID ?? jid
        let session: NewSession
        if wantsToken, let issued = outcome.token {
            session = try verifyToken(context: context, jid: jid, settings: settings,
                                      .fast(issued.mechanism, issued.token, userAgentID: userAgentID))
        } else {
            if kind == .fast { throw ToolFailure(.auth, "\(jid.domain) gave no FAST token after the log-in; log in with --session scram-keys") }
            guard let keys = outcome.keys else { throw ToolFailure(.failed, "\(outcome.mechanism) left no SCRAM keys to cache") }
            try verifyResumable(context: context, jid: jid, settings: settings, keys: keys)
            session = .scramKeys(keys)
        }
        return Result(boundJID: bound, mechanism: outcome.mechanism, session: session,
                      tlsVersion: connection.tlsVersion ?? .other, endpoint: connection.endpoint,
                      downgradeProtected: outcome.downgradeProtected, usedSASL2: outcome.usedSASL2)
    }

    private static func noSCRAM(_ jid: JID) -> ToolFailure {
        ToolFailure(.auth, "\(jid.domain) offers no SCRAM mechanism; a session cannot be cached without storing the password, which this tool never does (the password was not sent); "
                    + PasswordCommandLogin.hint(jid))
    }

    /// Proves the keys authenticate on a fresh stream before anything is saved. A server that
    /// keeps plain-text passwords (ejabberd `auth_password_format: plain`) salts every login
    /// anew, so keys derived once never work again: say so now, not on the next command.
    static func verifyResumable(context: AccountContext, jid: JID, settings: AccountSettings, keys: SCRAMKeys) throws {
        guard try isResumable(context: context, jid: jid, settings: settings, keys: keys) else {
            throw ToolFailure(.auth, "\(jid.domain) salts every login anew (it stores plain-text passwords), so its SCRAM keys cannot be cached; "
                              + PasswordCommandLogin.hint(jid) + ", or ask its operator to store SCRAM hashes (ejabberd: auth_password_format: scram)")
        }
    }

    /// Whether `keys` authenticate on a fresh stream; false when the server salted anew.
    static func isResumable(context: AccountContext, jid: JID, settings: AccountSettings, keys: SCRAMKeys) throws -> Bool {
        let connection = try context.open(domain: jid.domain, settings: settings, account: jid)
        defer { connection.close() }
        guard let error = resume(connection, jid: jid, keys: keys) else { return true }
        if case .sasl(.cachedKeysStale) = error { return false }
        throw error
    }

    /// Proves a new FAST token authenticates on a fresh stream; the token to keep (the server
    /// may already rotate it).
    private static func verifyToken(context: AccountContext, jid: JID, settings: AccountSettings, _ session: NewSession) throws -> NewSession {
        guard case .fast(let mechanism, let token, let userAgentID) = session else { return session }
        let connection = try context.open(domain: jid.domain, settings: settings, account: jid)
        defer { connection.close() }
        let outcome = try connection.logIn(LoginRequest(
            username: jid.local ?? "", credential: .token(mechanism, secret: token.secret), usedSCRAMBefore: true,
            userAgentID: userAgentID, bind: false))
        if let rotated = outcome.token { return .fast(rotated.mechanism, rotated.token, userAgentID: userAgentID) }
        return session
    }

    private static func resume(_ connection: Connection, jid: JID, keys: SCRAMKeys) -> ConnectionError? {
        do {
            _ = try connection.logIn(LoginRequest(username: jid.local ?? "", credential: .keys(keys), usedSCRAMBefore: true, bind: false))
            return nil
        } catch {
            return error
        }
    }

    /// Writes the session file (under the account's session lock, so a tool rotating the old
    /// token at the same moment cannot overwrite it) and the account's settings.
    static func saveSession(env: ToolEnvironment, jid: JID, settings: AccountSettings, result: Result, makeActive: Bool) throws {
        try env.sessions.withSessionLock(jid) {
            switch result.session {
            case .scramKeys(let keys):
                try env.sessions.save(SessionKeys.session(jid: jid, mechanism: result.mechanism, keys: keys, now: env.now,
                                                       sasl2: result.usedSASL2))
            case .fast(let mechanism, let token, let userAgentID):
                try env.sessions.save(FASTSession(jid: jid.bare, mechanism: mechanism.name, token: token.secret,
                                                  expiry: token.expiry, userAgentID: userAgentID, created: env.now))
            }
        }
        try env.accounts.update { file in
            file.accounts[jid.description] = AccountContext.remembered(settings, over: file.accounts[jid.description])
            if makeActive || file.active == nil { file.active = jid.description }
        }
    }
}
