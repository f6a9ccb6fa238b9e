import TextFormats
import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// A login with the password, shared by `xmpp-login`, `xmpp-register --login` and `passwd`:
/// authenticate once (SCRAM only: the password is never sent as PLAIN here), prove the derived
/// keys work on a fresh stream, and store them (never the password) with the account's settings.
enum PasswordLogin {
    /// What a password login produced.
    struct Result {
        var boundJID: JID
        var mechanism: String
        var keys: SCRAMKeys
        var tlsVersion: TLSVersion
        var endpoint: Endpoint
    }

    /// Parses an account JID, which needs a user part.
    static func accountJID(_ text: String) throws -> JID { try AccountContext.parseAccountJID(text, what: "JID") }

    /// Connects, authenticates with the password, binds, and returns the keys to cache.
    static func authenticate(context: AccountContext, jid: JID, settings: AccountSettings, password: String) throws -> Result {
        let connection = try context.open(domain: jid.domain, settings: settings)
        defer { connection.close() }
        let outcome: AuthenticationOutcome
        do {
            outcome = try connection.authenticate(username: jid.local ?? "", credential: .password(password),
                                                  usedSCRAMBefore: settings.usedSCRAM, requireSCRAM: true)
        } catch {
            if case .sasl(.scramRequired) = error { throw noSCRAM(jid) }
            if let rejection = ErrorMapping.passwordRejection(error, jid: jid.description) { throw rejection }
            throw error
        }
        guard let keys = outcome.keys else { throw ToolFailure(.failed, "\(outcome.mechanism) left no SCRAM keys to cache") }
        let bound = try connection.bind(resource: context.common.resource)
        try verifyResumable(context: context, jid: jid, settings: settings, keys: keys)
        return Result(boundJID: bound, mechanism: outcome.mechanism, keys: keys,
                      tlsVersion: connection.tlsVersion ?? .other, endpoint: connection.endpoint)
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
        let connection = try context.open(domain: jid.domain, settings: settings)
        defer { connection.close() }
        guard let error = resume(connection, jid: jid, keys: keys) else { return true }
        if case .sasl(.cachedKeysStale) = error { return false }
        throw error
    }

    private static func resume(_ connection: Connection, jid: JID, keys: SCRAMKeys) -> ConnectionError? {
        do {
            _ = try connection.authenticate(username: jid.local ?? "", credential: .keys(keys), usedSCRAMBefore: true)
            return nil
        } catch {
            return error
        }
    }

    /// Writes the session file and the account's settings.
    static func saveSession(env: ToolEnvironment, jid: JID, settings: AccountSettings, result: Result, makeActive: Bool) throws {
        try env.sessions.save(SessionKeys.session(jid: jid, mechanism: result.mechanism, keys: result.keys, now: env.now))
        try env.accounts.update { file in
            file.accounts[jid.description] = AccountContext.remembered(settings, over: file.accounts[jid.description])
            if makeActive || file.active == nil { file.active = jid.description }
        }
    }
}
