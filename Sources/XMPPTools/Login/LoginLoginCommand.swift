import Arguments
import TextFormats
import XMPPStorage

extension LoginTool {
    /// `xmpp-login [login] JID`: authenticate with the password once, keep a FAST token or SCRAM
    /// keys (never the password), remember the connection settings, and make the account active.
    struct Login: ToolCommand {
        static let jid = PositionalSpec("JID", help: "The account, user@domain.", completion: .accounts)
        static let passwordCommand = Option<String>(
            "password-command", value: "COMMAND",
            help: "Get the password from the first line COMMAND prints (run by /bin/sh), and keep the command "
                + "where the server's SCRAM keys cannot be cached.",
            completion: .none)
        static let allowPlain = Flag(
            "allow-plain",
            help: "Accept PLAIN (over TLS) for this account from now on, after its server really stopped offering SCRAM.")
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
                    + "someone changed the offered mechanisms, and the login fails (exit status 3); "
                    + "downgrade_protected (with --json) says whether the server sent one. PLAIN is never used "
                    + "by a login that caches SCRAM keys or a token. Once an account has authenticated with SCRAM or "
                    + "FAST, every program refuses PLAIN for it (exit status 3, before the password is sent), since "
                    + "someone between it and the server may have removed the other mechanisms; where the server's "
                    + "operator really turned SCRAM off, --allow-plain with --password-command accepts PLAIN over TLS "
                    + "for the account from then on.",
                "--server, --direct-tls, --ca-file and --pin given here are remembered with the account, "
                    + "so later commands need none of them; several --server are remembered in their order, and "
                    + "later commands try them in turn as the log-in did. Logging in again replaces the session.",
                "The remembered settings form two groups: where to connect (--server, --direct-tls) and whom "
                    + "to trust (--ca-file, --pin). Giving any option of a group, here or to any other "
                    + "command, replaces that whole group, so a remembered --direct-tls never applies to a new "
                    + "--server; a login saves what it used. xmpp-login status shows what is remembered, and "
                    + "xmpp-login forget-settings clears it.",
                "--insecure is never remembered: it applies to the login it is given to, and the trust "
                    + "settings remembered before it stay. It cannot be combined with --pin or --ca-file "
                    + "(exit status 2).",
                "The session kept is the best the server allows, and xmpp-login status names its kind "
                    + "(session_kind with --json): scram-keys, the SCRAM salt, iteration count and derived keys, "
                    + "which authenticate again while the password stays the same; or, with --password-command on "
                    + "a server whose SCRAM keys cannot be cached (one that stores plain-text passwords salts "
                    + "every login anew, and one without SCRAM has none), password-command: the COMMAND itself, "
                    + "never the password, which every program then runs when it authenticates, as msmtp's "
                    + "passwordeval and isync's PassCmd do. Where the keys can be cached they are kept instead, "
                    + "and the command is not run again.",
                "COMMAND runs through /bin/sh -c with standard input from /dev/null and standard error left "
                    + "to the terminal, so a password manager can say what went wrong or ask for its passphrase "
                    + "there; the first line it prints is the password. A non-zero exit status, an empty first "
                    + "line, or no answer within --timeout seconds is exit status 3, naming the command. The "
                    + "password is never written anywhere: not to a file, not to --trace, not to any program's "
                    + "arguments.",
            ],
            options: PasswordSource.declarations + [passwordCommand, allowPlain, session],
            positionals: [jid],
            rules: [
                .exclusive("password-command", "password-file", because: "the password comes from one place"),
                .exclusive("password-command", "password-stdin", because: "the password comes from one place"),
                .exclusive("password-command", "session", because: "a password command keeps SCRAM keys where it can, else itself"),
                .requires("allow-plain", "password-command", because: "a PLAIN login leaves no keys or token to cache"),
            ],
            examples: [
                Example("xmpp-login bot@example.org --password-command 'pass show xmpp/bot'",
                        "Log in with a password from pass(1); where the server's SCRAM keys cannot be cached, every "
                            + "program runs the command again when it authenticates."),
            ])

        let context: AccountContext
        let password: PasswordSource
        let jidText: String
        let command: String?
        let kind: SessionKindChoice
        let allowsPlain: Bool

        init(_ invocation: Invocation) throws {
            context = invocation.context
            password = invocation.password
            jidText = invocation.command.argument(Self.jid.name) ?? ""
            command = try invocation.command.value(Self.passwordCommand)
            kind = try invocation.command.value(Self.session) ?? .auto
            allowsPlain = invocation.command[Self.allowPlain]
        }

        func run() throws {
            let jid = try PasswordLogin.accountJID(jidText)
            let env = context.environment
            let stored = try env.accounts.load().accounts[jid.description]
            var settings = try context.settings(for: jid, stored: stored)
            if allowsPlain { settings.usedSCRAM = false }
            let result: PasswordCommandLogin.Outcome
            let kindName: String
            if let command {
                guard !command.isEmpty else { throw ToolFailure(.usage, "--password-command needs a command") }
                result = try PasswordCommandLogin.login(context: context, jid: jid, settings: settings, command: command)
                kindName = result.kind.rawValue
            } else {
                let secret = try password.read(prompt: "Password for \(jid): ")
                let login = try PasswordLogin.authenticate(context: context, jid: jid, settings: settings, password: secret, kind: kind)
                try PasswordLogin.saveSession(env: env, jid: jid, settings: settings, result: login, makeActive: true)
                result = PasswordCommandLogin.Outcome(boundJID: login.boundJID, mechanism: login.mechanism, tlsVersion: login.tlsVersion,
                                                      endpoint: login.endpoint, kind: .scramKeys,
                                                      downgradeProtected: login.downgradeProtected)
                kindName = login.session.kindName
            }
            if settings.insecure {
                env.warn("--insecure is not remembered: later commands verify the certificate again; log in with --ca-file or --pin to remember whom to trust")
            }
            if context.common.json {
                Output.line(JSONValue.object([
                    ("jid", .string(jid.description)),
                    ("bound_jid", .string(result.boundJID.description)),
                    ("mechanism", .string(result.mechanism)),
                    ("session_kind", .string(kindName)),
                    ("tls_version", .string(result.tlsVersion.rawValue)),
                    ("downgrade_protected", .bool(result.downgradeProtected)),
                    ("server", .string(result.endpoint.description)),
                    ("session_file", .string(env.paths.sessionFile(jid.description))),
                    ("active", .bool(true)),
                ]).pretty)
            } else if !context.common.quiet {
                let kept = result.kind == .passwordCommand ? "its password command saved (the server's SCRAM keys cannot be cached)"
                    : "\(kindName) session saved"
                Output.textLine("Logged in as \(result.boundJID) (\(result.mechanism), \(result.tlsVersion.rawValue)); \(kept), \(jid) is active.")
            }
        }
    }
}
