import Arguments

/// The command line of `xmpp-login`.
public enum LoginSpec {
    /// The declaration that drives parsing, help, man page and completions.
    public static let spec = ToolSpec(
        name: "xmpp-login",
        summary: "log in to an XMPP account once and cache a password-free session",
        description: [
            "xmpp-login authenticates with the password once (SASL SCRAM over TLS), binds a resource to prove "
                + "that the session works, and stores the SCRAM salt, iteration count and derived keys, never the "
                + "password, together with the account's connection settings. Every other xmpp-tools program then "
                + "works without a password and without flags.",
            "Without a command word, the first argument is the JID to log in as: xmpp-login JID is short for "
                + "xmpp-login login JID.",
        ],
        version: CommonSpec.version,
        commonOptions: CommonSpec.options,
        subcommands: [
            CommandSpec("login", summary: "Log in as JID, cache the session and make the account active.",
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
                        options: CommonSpec.passwordOptions,
                        positionals: [PositionalSpec("JID", help: "The account, user@domain.", completion: .accounts)]),
            CommandSpec("status", summary: "Check the cached session by authenticating with it, and show how it went.",
                        discussion: ["Shows the bound JID, SASL mechanism, TLS version and server, and the connection "
                                     + "settings remembered with the account (as the options that gave them; with --json "
                                     + "an object remembered with the keys server, direct_tls, ca_file and pin, null when "
                                     + "absent). A session that no longer works (the password was changed elsewhere) is "
                                     + "exit status 3."],
                        positionals: [PositionalSpec("JID", help: "The account (default: the active one).",
                                                     optional: true, completion: .accounts)],
                        examples: [
                            Example("xmpp-login status --json | jq -r .mechanism",
                                    "Show which SASL mechanism the session uses."),
                        ]),
            CommandSpec("list", summary: "List the known accounts; * marks the active one.",
                        examples: [
                            Example("xmpp-login list --json | jq -r '.[] | select(.session) | .jid'",
                                    "Print the JIDs of the accounts that have a session."),
                        ]),
            CommandSpec("switch", summary: "Make another logged-in account the active one.",
                        positionals: [PositionalSpec("JID", help: "The account.", completion: .accounts)],
                        examples: [
                            Example("xmpp-login switch work@example.com",
                                    "Use work@example.com from now on when no --account is given."),
                        ]),
            CommandSpec("forget-settings",
                        summary: "Forget the remembered --server, --direct-tls, --ca-file and --pin of an account (default: the active one).",
                        discussion: ["The session stays: later commands look the server up by SRV and trust the system's "
                                     + "certificate authorities, unless given options again. To change the settings "
                                     + "instead, log in again with the new ones. An account with nothing remembered "
                                     + "succeeds with a note. The server is not contacted. With --json, forgotten holds "
                                     + "what was remembered, with the keys of status."],
                        positionals: [PositionalSpec("JID", help: "The account.", optional: true, completion: .accounts)],
                        examples: [
                            Example("xmpp-login forget-settings work@example.com",
                                    "Stop using the --server and --ca-file work@example.com logged in with."),
                        ]),
            CommandSpec("logout", summary: "Forget the cached session of an account (default: the active one).",
                        discussion: ["Logging out of an account that is not logged in succeeds with a note, so "
                                     + "scripts may call it unconditionally. The server is not contacted."],
                        options: [.flag("all", help: "Log out of every account.")],
                        positionals: [PositionalSpec("JID", help: "The account.", optional: true, completion: .accounts)],
                        examples: [
                            Example("xmpp-login list --json | jq -r '.[] | select(.active | not) | .jid' "
                                        + "| xargs -r -n 1 xmpp-login logout",
                                    "Log out of every account but the active one."),
                        ]),
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
            Example("xmpp-login bot@localhost --server 127.0.0.1:5223 --direct-tls --password-file pw.txt",
                    "Log in again over direct TLS: the remembered --server replaced, the remembered --ca-file kept."),
        ],
        seeAlso: ["xmpp-register(1)", "xmpp-roster(1)", "xmpp-vcard(1)", "xmpp-avatar(1)", "xmpp-tools(7)"]
    )
}
