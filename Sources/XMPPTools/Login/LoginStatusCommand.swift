import Arguments
import TextFormats

extension LoginTool {
    /// `xmpp-login status [JID]`: re-authenticates with the cached session and reports how.
    struct Status: ToolCommand {
        static let jid = PositionalSpec("JID", help: "The account (default: the active one).", optional: true,
                                        completion: .accounts)

        static let spec = CommandSpec(
            "status", summary: "Check the cached session by authenticating with it, and show how it went.",
            discussion: ["Shows the bound JID, SASL mechanism, the session's kind (fast: a FAST token; scram-keys: "
                         + "SCRAM keys; with --json the key session_kind), TLS version and server, and the connection "
                         + "settings remembered with the account (as the options that gave them; with --json "
                         + "an object remembered with the keys server, direct_tls, ca_file and pin, null when "
                         + "absent). A session that no longer works (the password was changed elsewhere) is "
                         + "exit status 3."],
            positionals: [jid],
            examples: [
                Example("xmpp-login status --json | jq -r .mechanism", "Show which SASL mechanism the session uses."),
            ])

        let context: AccountContext
        let jidText: String?

        init(_ invocation: Invocation) {
            context = invocation.context
            jidText = invocation.command.argument(Self.jid.name)
        }

        func run() throws {
            let env = context.environment
            var ctx = context
            if let jidText {
                var common = context.common
                common.account = try PasswordLogin.accountJID(jidText).description
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
            let kind = try env.sessions.loadCached(jid)?.kindName ?? "none"
            if context.common.json {
                Output.line(JSONValue.object([
                    ("jid", .string(jid.description)), ("bound_jid", .string(bound)),
                    ("mechanism", .string(mechanism)), ("session_kind", .string(kind)), ("tls_version", .string(tls)),
                    ("server", .string(connection.endpoint.description)), ("active", .bool(active)),
                    ("authenticated", .bool(true)), ("remembered", RememberedSettings.json(remembered)),
                ]).pretty)
            } else {
                Output.line("account:    \(jid)\(active ? " (active)" : "")")
                Output.textLine("bound:      \(bound)")  // the resource is the server's choice
                Output.line("mechanism:  \(mechanism)")
                Output.line("session:    \(kind)")
                Output.line("tls:        \(tls)")
                Output.line("server:     \(connection.endpoint)")
                Output.line("remembered: \(RememberedSettings.text(remembered))")
            }
        }
    }
}
