import Arguments

/// The command line of `xmpp-login`.
public enum LoginSpec {
    /// The declaration that drives parsing, help, man page and completions.
    public static let spec = ToolSpec(
        name: "xmpp-login",
        summary: "log in to an XMPP account once and cache a password-free session",
        description: [
            "xmpp-login authenticates with the password once (SASL SCRAM over TLS), binds a resource to prove the "
                + "session works, and stores the SCRAM salt, iteration count and derived keys, never the password, "
                + "together with the account's connection settings. Every other xmpp-tools program then works "
                + "without a password and without flags.",
            "With no subcommand word, the first argument is the JID to log in as.",
        ],
        version: CommonSpec.version,
        commonOptions: CommonSpec.options,
        subcommands: [
            CommandSpec("login", summary: "Log in as JID, cache the session and make the account active.",
                        options: CommonSpec.passwordOptions,
                        positionals: [PositionalSpec("JID", help: "The account, user@domain.", completion: .accounts)]),
            CommandSpec("status", summary: "Authenticate again with the cached session and report how.",
                        positionals: [PositionalSpec("JID", help: "The account (default: the active one).",
                                                     optional: true, completion: .accounts)]),
            CommandSpec("list", summary: "List accounts with a cached session; * marks the active one."),
            CommandSpec("switch", summary: "Make another logged-in account the active one.",
                        positionals: [PositionalSpec("JID", help: "The account.", completion: .accounts)]),
            CommandSpec("logout", summary: "Delete the cached session of an account (default: the active one).",
                        options: [.flag("all", help: "Log out of every account.")],
                        positionals: [PositionalSpec("JID", help: "The account.", optional: true, completion: .accounts)]),
        ],
        defaultSubcommand: "login",
        exitCodes: CommonSpec.exitCodes,
        environment: CommonSpec.environment,
        files: CommonSpec.files,
        examples: [
            Example("xmpp-login alice@example.org", "Log in, asking for the password on the terminal."),
            Example("pass show xmpp/alice | xmpp-login alice@example.org --password-stdin",
                    "Log in with a password from a password manager."),
            Example("xmpp-login bot@localhost --server 127.0.0.1:5222 --ca-file ca.pem --password-file pw.txt",
                    "Log in to a private server with its own certificate authority."),
            Example("xmpp-login status --json | jq -r .mechanism", "Show which SASL mechanism the session uses."),
            Example("xmpp-login list --json | jq -r '.[].jid'", "List the logged-in accounts."),
        ],
        seeAlso: ["xmpp-register(1)", "xmpp-roster(1)", "xmpp-vcard(1)", "xmpp-avatar(1)", "xmpp-tools(7)"]
    )
}
