import TextFormats
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// `xmpp-register JID|form|passwd|delete`: in-band registration (XEP-0077).
struct RegisterCommands {
    let context: AccountContext
    let password: PasswordSource
    var env: ToolEnvironment { context.environment }
    var json: Bool { context.common.json }

    /// Creates `jidText` on an unauthenticated stream; with `login`, caches a session too.
    func create(jidText: String, fields: [String: String], profile: Profile, login: Bool) throws {
        let jid = try PasswordLogin.accountJID(jidText)
        let settings = try context.settings(for: jid, stored: try env.accounts.load().accounts[jid.description])
        // A bad avatar fails before the account exists.
        let avatarPNG = try ProfileApplier.prepareAvatar(profile)
        let secret = try password.read(prompt: "New password for \(jid): ", confirm: true)
        var registrationFields = fields
        if let email = profile.email, registrationFields["email"] == nil { registrationFields["email"] = email }
        let connection = try context.open(domain: jid.domain, settings: settings)
        do {
            try RegistrationService.register(on: connection, username: jid.local ?? "", password: secret, extra: registrationFields)
        } catch {
            connection.close()
            throw ErrorMapping.failure(for: error)
        }
        connection.close()
        if !profile.isEmpty {
            try applyProfile(profile, avatarPNG: avatarPNG, jid: jid, settings: settings, password: secret)
        }
        var loggedIn: PasswordLogin.Result?
        if login {
            let result = try PasswordLogin.authenticate(context: context, jid: jid, settings: settings, password: secret)
            try PasswordLogin.saveSession(env: env, jid: jid, settings: settings, result: result, makeActive: true)
            loggedIn = result
        }
        if json {
            Output.line(JSONValue.object([
                ("jid", .string(jid.description)), ("status", .string("created")),
                ("logged_in", .bool(loggedIn != nil)),
                ("profile", .array(profile.fieldNames.map(JSONValue.string))),
            ]).pretty)
        } else if !context.common.quiet {
            Output.line("Created \(jid)." + (loggedIn != nil ? " Logged in; \(jid) is active." : ""))
        }
    }

    /// Logs in once with the new password and sets the profile (vCard fields, avatar).
    private func applyProfile(_ profile: Profile, avatarPNG: [UInt8]?, jid: JID, settings: AccountSettings, password: String) throws {
        let connection = try context.open(domain: jid.domain, settings: settings)
        defer { connection.close() }
        do {
            _ = try connection.authenticate(username: jid.local ?? "", credential: .password(password), usedSCRAMBefore: false)
            try connection.bind(resource: context.common.resource)
            try ProfileApplier.apply(profile, avatarPNG: avatarPNG, on: connection)
        } catch {
            let failure = ErrorMapping.failure(for: error)
            throw ToolFailure(failure.code, "\(jid) was created, but its profile was not set: \(failure.message)")
        }
    }

    /// Shows what `domain` asks for to register.
    func form(domainText: String) throws {
        let domain: String
        do { domain = try JID(domainText).domain } catch { throw ToolFailure(.badInput, "invalid domain '\(domainText)': \(error)") }
        let settings = try context.settings(for: try JID(domain), stored: nil)
        let connection = try context.open(domain: domain, settings: settings)
        defer { connection.close() }
        let form: RegistrationForm
        do { form = try RegistrationService.form(on: connection) } catch { throw ErrorMapping.failure(for: error) }
        RegistrationFormOutput.print(form, domain: domain, advertised: connection.features.registration, json: json)
    }

    /// Changes the logged-in account's password and refreshes its cached session.
    func passwd() throws {
        let (connection, jid) = try context.connectWithSession()
        let secret = try password.read(prompt: "New password for \(jid): ", confirm: true)
        do {
            try RegistrationService.changePassword(on: connection, username: jid.local ?? "", newPassword: secret)
        } catch {
            connection.close()
            throw ErrorMapping.failure(for: error)
        }
        connection.close()
        // The server salted the new password afresh: derive the new keys by logging in once.
        let settings = try context.settings(for: jid, stored: try env.accounts.load().accounts[jid.description])
        let result = try PasswordLogin.authenticate(context: context, jid: jid, settings: settings, password: secret)
        let wasActive = try env.accounts.load().active == jid.description
        try PasswordLogin.saveSession(env: env, jid: jid, settings: settings, result: result, makeActive: wasActive)
        if json {
            Output.line(JSONValue.object([("jid", .string(jid.description)), ("status", .string("password_changed")),
                                          ("session_refreshed", .bool(true))]).pretty)
        } else if !context.common.quiet {
            Output.line("Password of \(jid) changed; the cached session is refreshed.")
        }
    }

    /// Deletes the logged-in account from the server and forgets its session.
    func delete(confirmed: Bool) throws {
        let jid = try context.accountJID()
        guard confirmed else {
            throw ToolFailure(.usage, "refusing to delete \(jid) without --yes (this cannot be undone)")
        }
        let (connection, _) = try context.connectWithSession()
        do { try RegistrationService.cancel(on: connection) } catch {
            connection.close()
            throw ErrorMapping.failure(for: error)
        }
        connection.close()
        try env.sessions.remove(jid)
        try env.accounts.update { file in
            file.accounts[jid.description] = nil
            if file.active == jid.description { file.active = nil }
        }
        if json {
            Output.line(JSONValue.object([("jid", .string(jid.description)), ("status", .string("deleted"))]).pretty)
        } else if !context.common.quiet {
            Output.line("Deleted \(jid) from the server and forgot its session.")
        }
    }
}
