import TextFormats
import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// `xmpp-login JID`: authenticate with the password once, keep SCRAM keys (never the password),
/// remember the connection settings, and make the account active.
struct LoginCommand {
    let context: AccountContext
    let password: PasswordSource

    func run(jidText: String) throws {
        let jid = try Self.accountJID(jidText)
        let env = context.environment
        let stored = try env.accounts.load().accounts[jid.description]
        let settings = try context.settings(for: jid, stored: stored)
        let secret = try password.read(prompt: "Password for \(jid): ")
        let result = try Self.authenticate(context: context, jid: jid, settings: settings, password: secret)
        try Self.saveSession(env: env, jid: jid, settings: settings, result: result, makeActive: true)
        if settings.insecure {
            env.warn("--insecure is not remembered: later commands verify the certificate again; log in with --ca-file or --pin to remember whom to trust")
        }
        if context.common.json {
            Output.line(JSONValue.object([
                ("jid", .string(jid.description)),
                ("bound_jid", .string(result.boundJID.description)),
                ("mechanism", .string(result.mechanism)),
                ("tls_version", .string(result.tlsVersion.rawValue)),
                ("server", .string(result.endpoint.description)),
                ("session_file", .string(env.paths.sessionFile(jid.description))),
                ("active", .bool(true)),
            ]).pretty)
        } else if !context.common.quiet {
            Output.textLine("Logged in as \(result.boundJID) (\(result.mechanism), \(result.tlsVersion.rawValue)); session saved, \(jid) is active.")
        }
    }

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
        ToolFailure(.auth, "\(jid.domain) offers no SCRAM mechanism; a session cannot be cached without storing the password, which this tool never does (the password was not sent)")
    }

    /// Proves the keys authenticate on a fresh stream before anything is saved. A server that
    /// keeps plain-text passwords (ejabberd `auth_password_format: plain`) salts every login
    /// anew, so keys derived once never work again: say so now, not on the next command.
    static func verifyResumable(context: AccountContext, jid: JID, settings: AccountSettings, keys: SCRAMKeys) throws {
        let connection = try context.open(domain: jid.domain, settings: settings)
        defer { connection.close() }
        if let error = resume(connection, jid: jid, keys: keys) {
            if case .sasl(.cachedKeysStale) = error {
                throw ToolFailure(.auth, "\(jid.domain) salts every login anew (it stores plain-text passwords), so a password-free session cannot be cached; ask its operator to store SCRAM hashes (ejabberd: auth_password_format: scram)")
            }
            throw error
        }
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
