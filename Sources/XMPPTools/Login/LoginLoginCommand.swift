import Arguments
import TextFormats

extension LoginTool {
    /// `xmpp-login [login] JID`: authenticate with the password once, keep SCRAM keys (never the
    /// password), remember the connection settings, and make the account active.
    struct Login: ToolCommand {
        static let jid = PositionalSpec("JID", help: "The account, user@domain.", completion: .accounts)

        static let spec = CommandSpec(
            "login", summary: "Log in as JID, cache the session and make the account active.",
            discussion: [
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
            options: PasswordSource.declarations,
            positionals: [jid])

        let context: AccountContext
        let password: PasswordSource
        let jidText: String

        init(_ invocation: Invocation) {
            context = invocation.context
            password = invocation.password
            jidText = invocation.command.argument(Self.jid.name) ?? ""
        }

        func run() throws {
            let jid = try PasswordLogin.accountJID(jidText)
            let env = context.environment
            let stored = try env.accounts.load().accounts[jid.description]
            let settings = try context.settings(for: jid, stored: stored)
            let secret = try password.read(prompt: "Password for \(jid): ")
            let result = try PasswordLogin.authenticate(context: context, jid: jid, settings: settings, password: secret)
            try PasswordLogin.saveSession(env: env, jid: jid, settings: settings, result: result, makeActive: true)
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
    }
}
