import Arguments
import TextFormats
import XMPPStorage

extension LoginTool {
    /// `xmpp-login status [JID]`: re-authenticates with the cached session and reports how.
    struct Status: NamedAccountCommand {
        static let jid = PositionalSpec("JID", help: "The account (default: the active one).", optional: true,
                                        completion: .accounts)

        static let spec = CommandSpec(
            "status", summary: "Check the cached session by authenticating with it, and show how it went.",
            discussion: ["Shows the bound JID, SASL mechanism, the session's kind, TLS version and server, and the connection "
                         + "settings remembered with the account (as the options that gave them; with --json "
                         + "an object remembered with the keys server, direct_tls, ca_file and pin, null when "
                         + "absent). A session that no longer works (the password was changed elsewhere) is "
                         + "exit status 3.",
                         "The session's kind says how it authenticates (session_kind with --json): fast (a FAST "
                         + "token, XEP-0484), scram-keys (cached SCRAM keys) or password-command (the command given to xmpp-login "
                         + "--password-command, run again for this check; password_command with --json, null "
                         + "for other kinds).",
                         "With -q it prints no report, so the exit status answers, as grep -q does: 0 when the "
                         + "session works, 3 when there is none or the server refused it, 6 or 7 when the server "
                         + "could not be reached (the error still goes to stderr; --json still prints its document)."],
            positionals: [jid],
            examples: [
                Example("xmpp-login status --json | jq -r .mechanism", "Show which SASL mechanism the session uses."),
                Example("xmpp-login status -q || xmpp-login bot@example.org --password-command 'pass show xmpp/bot'",
                        "Log in again only when the cached session no longer works."),
            ])

        let context: AccountContext
        let jidText: String?

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
            let cached = try env.sessions.loadCached(jid)
            var session: StoredSession?
            if case .scramKeys(let s)? = cached { session = s }
            let kind = session?.kind.rawValue ?? cached?.kindName ?? "none"
            if context.common.json {
                Output.line(JSONValue.object([
                    ("jid", .string(jid.description)), ("bound_jid", .string(bound)),
                    ("mechanism", .string(mechanism)), ("session_kind", .string(kind)), ("tls_version", .string(tls)),
                    ("server", .string(connection.endpoint.description)), ("active", .bool(active)),
                    ("authenticated", .bool(true)), ("remembered", RememberedSettings.json(remembered)),
                    ("password_command", session?.passwordCommand.map(JSONValue.string) ?? .null),
                ]).pretty)
            } else if !context.common.quiet {
                Output.line("account:    \(jid)\(active ? " (active)" : "")")
                Output.textLine("bound:      \(bound)")  // the resource is the server's choice
                Output.line("mechanism:  \(mechanism)")
                Output.textLine("session:    \(kind)" + (session?.passwordCommand.map { " (\($0))" } ?? ""))
                Output.line("tls:        \(tls)")
                Output.line("server:     \(connection.endpoint)")
                Output.line("remembered: \(RememberedSettings.text(remembered))")
            }
        }
    }
}
