import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// `xmpp-login status|list|switch|logout`: inspect and manage cached sessions.
struct SessionCommands {
    let context: AccountContext
    var env: ToolEnvironment { context.environment }
    var json: Bool { context.common.json }

    /// Re-authenticates with the cached keys and reports how.
    func status(jidText: String?) throws {
        var ctx = context
        if let jidText {
            var common = context.common
            common.account = try LoginCommand.accountJID(jidText).description
            ctx = AccountContext(environment: env, common: common)
        }
        let (connection, jid) = try ctx.connectWithSession()
        defer { connection.close() }
        let active = try env.accounts.load().active == jid.description
        let bound = connection.boundJID?.description ?? jid.description
        let tls = connection.tlsVersion?.rawValue ?? "none"
        let mechanism = connection.mechanism ?? "unknown"
        if json {
            Output.line(JSONValue.object([
                ("jid", .string(jid.description)), ("bound_jid", .string(bound)),
                ("mechanism", .string(mechanism)), ("tls_version", .string(tls)),
                ("server", .string(connection.endpoint.description)), ("active", .bool(active)),
                ("authenticated", .bool(true)),
            ]).pretty)
        } else {
            Output.line("account:    \(jid)\(active ? " (active)" : "")")
            Output.textLine("bound:      \(bound)")  // the resource is the server's choice
            Output.line("mechanism:  \(mechanism)")
            Output.line("tls:        \(tls)")
            Output.line("server:     \(connection.endpoint)")
        }
    }

    /// Lists accounts with a cached session.
    func list() throws {
        let file = try env.accounts.load()
        let withSession = Set(SecureFile.list(env.paths.sessionsDirectory))
        let names = Set(file.accounts.keys).union(withSession).sorted()
        if json {
            Output.line(JSONValue.array(names.map { name in
                let s = file.accounts[name]
                return .object([
                    ("jid", .string(name)), ("active", .bool(file.active == name)),
                    ("session", .bool(withSession.contains(name))),
                    ("server", .optional(s?.server.map { h in s?.port.map { "\(h):\($0)" } ?? h })),
                    ("direct_tls", .bool(s?.directTLS ?? false)),
                ])
            }).pretty)
            return
        }
        for name in names {
            let marker = file.active == name ? "*" : " "
            let note = withSession.contains(name) ? "" : "\t(no session)"
            Output.line("\(marker) \(name)\(note)")
        }
    }

    /// Makes another logged-in account the active one.
    func switchTo(jidText: String) throws {
        let jid = try LoginCommand.accountJID(jidText)
        guard try env.sessions.load(jid) != nil else {
            throw ToolFailure(.auth, "no session for \(jid): log in with 'xmpp-login \(jid)'")
        }
        try env.accounts.update { $0.active = jid.description }
        if json {
            Output.line(JSONValue.object([("active", .string(jid.description))]).pretty)
        } else if !context.common.quiet {
            Output.line("\(jid) is now the active account.")
        }
    }

    /// Forgets one account's session (the active one by default) or all of them.
    func logout(jidText: String?, all: Bool) throws {
        var file = try env.accounts.load()
        let targets: [String]
        if all {
            targets = Array(Set(file.accounts.keys).union(SecureFile.list(env.paths.sessionsDirectory))).sorted()
        } else if let jidText {
            targets = [try LoginCommand.accountJID(jidText).description]
        } else {
            targets = [try context.accountJID().description]
        }
        var removed: [String] = []
        for name in targets {
            let known = file.accounts[name] != nil || SecureFile.list(env.paths.sessionsDirectory).contains(name)
            try SecureFile.remove(env.paths.sessionFile(name))
            file.accounts[name] = nil
            if file.active == name { file.active = nil }
            if known { removed.append(name) } else { env.warn("\(name) was not logged in") }
        }
        try env.accounts.save(file)
        if json {
            Output.line(JSONValue.object([("logged_out", .array(removed.map(JSONValue.string)))]).pretty)
        } else if !context.common.quiet {
            for name in removed { Output.line("Logged out \(name); its session file is deleted.") }
        }
    }
}
