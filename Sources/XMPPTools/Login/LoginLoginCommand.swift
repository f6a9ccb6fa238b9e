import Arguments
import TextFormats

extension LoginTool {
    /// `xmpp-login [login] JID`: authenticate with the password once, keep a FAST token or SCRAM
    /// keys (never the password), remember the connection settings, and make the account active.
    struct Login: ToolCommand {
        static let jid = PositionalSpec("JID", help: "The account, user@domain.", completion: .accounts)
        static let session = Option<SessionKindChoice>.choice(
            "session", value: "KIND",
            help: "What to cache: auto (a FAST token where the server offers one, else SCRAM keys), fast or scram-keys.",
            default: .auto)

        static let spec = CommandSpec(
            "login", summary: "Log in as JID, cache the session and make the account active.",
            discussion: [
                "Where the server offers SASL2 (XEP-0388), authentication and resource binding (XEP-0386) take "
                    + "one exchange. Where it also offers FAST (XEP-0484), the login asks for a token, channel-bound "
                    + "to TLS where both sides can (HT-SHA-256-EXPR or -UNIQ), and the session keeps only that token: "
                    + "later commands authenticate with it in one round trip and store the token the server rotates "
                    + "it to; xmpp-login logout invalidates it on the server. Elsewhere the session keeps the SCRAM "
                    + "salt, iteration count and derived keys. --session scram-keys keeps keys even where FAST is "
                    + "offered; --session fast refuses a server without FAST (exit status 3) before sending the password.",
                "A server's XEP-0474 downgrade-protection hash is checked wherever it sends one: a mismatch means "
                    + "someone changed the offered mechanisms, and the login fails (exit status 3). PLAIN is never used "
                    + "by a login that caches a session.",
                "--server, --direct-tls, --ca-file and --pin given here are remembered with the account, "
                    + "so later commands need none of them. Logging in again replaces the session.",
                "The remembered settings form two groups: where to connect (--server, --direct-tls) and whom "
                    + "to trust (--ca-file, --pin). Giving any option of a group, here or to any other "
                    + "command, replaces that whole group, so a remembered --direct-tls never applies to a new "
                    + "--server; a login saves what it used. xmpp-login status shows what is remembered, and "
                    + "xmpp-login forget-settings clears it.",
                "--insecure is never remembered: it applies to the login it is given to, and the trust "
                    + "settings remembered before it stay. It cannot be combined with --pin or --ca-file "
                    + "(exit status 2).",
            ],
            options: PasswordSource.declarations + [session],
            positionals: [jid])

        let context: AccountContext
        let password: PasswordSource
        let jidText: String
        let kind: SessionKindChoice

        init(_ invocation: Invocation) throws {
            context = invocation.context
            password = invocation.password
            jidText = invocation.command.argument(Self.jid.name) ?? ""
            kind = try invocation.command.value(Self.session) ?? .auto
        }

        func run() throws {
            let jid = try PasswordLogin.accountJID(jidText)
            let env = context.environment
            let stored = try env.accounts.load().accounts[jid.description]
            let settings = try context.settings(for: jid, stored: stored)
            let secret = try password.read(prompt: "Password for \(jid): ")
            let result = try PasswordLogin.authenticate(context: context, jid: jid, settings: settings, password: secret, kind: kind)
            try PasswordLogin.saveSession(env: env, jid: jid, settings: settings, result: result, makeActive: true)
            if settings.insecure {
                env.warn("--insecure is not remembered: later commands verify the certificate again; log in with --ca-file or --pin to remember whom to trust")
            }
            if context.common.json {
                Output.line(JSONValue.object([
                    ("jid", .string(jid.description)),
                    ("bound_jid", .string(result.boundJID.description)),
                    ("mechanism", .string(result.mechanism)),
                    ("session_kind", .string(result.session.kindName)),
                    ("tls_version", .string(result.tlsVersion.rawValue)),
                    ("server", .string(result.endpoint.description)),
                    ("session_file", .string(env.paths.sessionFile(jid.description))),
                    ("active", .bool(true)),
                ]).pretty)
            } else if !context.common.quiet {
                Output.textLine("Logged in as \(result.boundJID) (\(result.mechanism), \(result.tlsVersion.rawValue)); \(result.session.kindName) session saved, \(jid) is active.")
            }
        }
    }
}
