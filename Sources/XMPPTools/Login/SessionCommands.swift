import TextFormats
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
        let file = try env.accounts.load()
        let active = file.active == jid.description
        let remembered = file.accounts[jid.description]
        let bound = connection.boundJID?.description ?? jid.description
        let tls = connection.tlsVersion?.rawValue ?? "none"
        let mechanism = connection.mechanism ?? "unknown"
        if json {
            Output.line(JSONValue.object([
                ("jid", .string(jid.description)), ("bound_jid", .string(bound)),
                ("mechanism", .string(mechanism)), ("tls_version", .string(tls)),
                ("server", .string(connection.endpoint.description)), ("active", .bool(active)),
                ("authenticated", .bool(true)), ("remembered", RememberedSettings.json(remembered)),
            ]).pretty)
        } else {
            Output.line("account:    \(jid)\(active ? " (active)" : "")")
            Output.textLine("bound:      \(bound)")  // the resource is the server's choice
            Output.line("mechanism:  \(mechanism)")
            Output.line("tls:        \(tls)")
            Output.line("server:     \(connection.endpoint)")
            Output.line("remembered: \(RememberedSettings.text(remembered))")
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
                    ("server", .optional(RememberedSettings.server(s))),
                    ("direct_tls", .bool(s?.directTLS ?? false)),
                    ("ca_file", .optional(s?.caFile)), ("pin", .optional(s?.pin)),
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

    /// Forgets an account's remembered connection settings (the active one by default) and keeps
    /// its session: later commands look its server up and trust the system's authorities again.
    func forgetSettings(jidText: String?) throws {
        let jid = try jidText.map(LoginCommand.accountJID) ?? context.accountJID()
        var old: AccountSettings?
        try env.accounts.update { file in
            old = file.accounts[jid.description]
            if let old { file.accounts[jid.description] = AccountSettings(usedSCRAM: old.usedSCRAM) }
        }
        let forgotten = RememberedSettings.options(old)
        if json {
            Output.line(JSONValue.object([("jid", .string(jid.description)),
                                          ("forgotten", RememberedSettings.json(old))]).pretty)
        } else if forgotten.isEmpty {
            env.warn("\(jid) has no remembered connection settings")
        } else if !context.common.quiet {
            Output.line("Forgot \(forgotten.joined(separator: " ")) for \(jid); its session stays.")
        }
    }

    /// Forgets one account's session (the active one by default) or all of them.
    func logout(jidText: String?, all: Bool) throws {
        var named: String?
        if !all {
            named = try jidText.map { try LoginCommand.accountJID($0) }?.description ?? context.accountJID().description
        }
        var removed: [String] = []
        var unknown: [String] = []
        // Under the accounts lock, so that a log-in at the same time is neither lost nor undone.
        try env.accounts.update { file throws(StorageError) in
            let sessions = SecureFile.list(env.paths.sessionsDirectory)
            let targets = named.map { [$0] } ?? Array(Set(file.accounts.keys).union(sessions)).sorted()
            for name in targets {
                let known = file.accounts[name] != nil || sessions.contains(name)
                try SecureFile.remove(env.paths.sessionFile(name))
                file.accounts[name] = nil
                if file.active == name { file.active = nil }
                if known { removed.append(name) } else { unknown.append(name) }
            }
        }
        for name in unknown { env.warn("\(name) was not logged in") }
        if json {
            Output.line(JSONValue.object([("logged_out", .array(removed.map(JSONValue.string)))]).pretty)
        } else if !context.common.quiet {
            for name in removed { Output.line("Logged out \(name); its session file is deleted.") }
        }
    }
}
