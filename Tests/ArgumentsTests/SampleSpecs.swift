import Arguments

/// Realistic specs, cut down from the five tools, that every test works on.
enum Samples {
    static let common: [OptionSpec] = [
        OptionSpec(
            "account", short: "a", value: "JID", help: "Account to use (default: the active account).",
            env: "XMPP_ACCOUNT", completion: .accounts),
        .flag("json", help: "Print one JSON document with stable snake_case keys."),
        OptionSpec("server", value: "HOST[:PORT]", help: "Connect to this host, skipping the SRV lookup."),
        .flag("direct-tls", help: "Use TLS from the first byte (XEP-0368)."),
        OptionSpec("ca-file", value: "PATH", help: "Trust the certificates in this PEM file.", completion: .anyFile),
        OptionSpec("timeout", value: "SECONDS", help: "Give up on the server after this long.", default: "15"),
        .flag("trace", help: "Copy raw XML to stderr, credentials redacted."),
        .flag("quiet", short: "q", help: "Print nothing but data and errors."),
        .flag("debug-dump", help: "Dump internal state.", hidden: true),
    ]

    static let exitCodes: [ExitStatus] = [
        ExitStatus(0, "Success, also when there is nothing to list."),
        ExitStatus(1, "The operation failed."),
        ExitStatus(2, "Usage error."),
        ExitStatus(3, "Authentication failed or no session."),
        ExitStatus(4, "Not found."),
        ExitStatus(6, "Network failure."),
    ]

    static let files: [Definition] = [
        Definition("$XDG_CONFIG_HOME/xmpp-tools/accounts.json", "Known accounts and the active one."),
        Definition("$XDG_CACHE_HOME/xmpp-tools/cache.sqlite3", "Roster, vCard and avatar cache; disposable."),
    ]

    static let contact = PositionalSpec(
        "JID", help: "The contact; a bare name means that name on your domain.",
        completion: .contacts)

    static let roster = ToolSpec(
        name: "xmpp-roster",
        summary: "list and change the roster of an XMPP account",
        description: [
            "xmpp-roster reads and edits the contact list (roster) of an account, as defined by RFC 6121.",
            "Changes go to the server at once; the local cache only speeds up listing and completion.",
        ],
        version: "0.1.0",
        commonOptions: common,
        subcommands: [
            CommandSpec(
                "list", summary: "List contacts with their subscription and presence.",
                options: [
                    .flag("online", help: "Only contacts that are online now."),
                    OptionSpec(
                        "group", short: "g", value: "GROUP", help: "Only contacts in this group.",
                        repeatable: true, completion: .custom("groups")),
                    .flag("cached", help: "Read the local cache; do not connect."),
                    OptionSpec(
                        "sort", value: "KEY", help: "Order of the rows.", default: "jid",
                        completion: .values(["jid", "name", "group"])),
                ],
                examples: [
                    Example(
                        "xmpp-roster list --online --json | jq -r '.[].jid'",
                        "Print the JIDs of the contacts online now.")
                ]),
            CommandSpec(
                "add", summary: "Add a contact and ask for a subscription.",
                options: [
                    OptionSpec("name", value: "NAME", help: "Name to show for the contact."),
                    OptionSpec(
                        "group", short: "g", value: "GROUP", help: "Put the contact in this group.",
                        repeatable: true, completion: .custom("groups")),
                ],
                positionals: [PositionalSpec("JID", help: "The contact to add.", completion: .contacts)]),
            CommandSpec(
                "remove", summary: "Remove a contact and cancel both subscriptions.",
                positionals: [contact]),
            CommandSpec("pending", summary: "List subscription requests waiting for an answer."),
            CommandSpec(
                "approve", summary: "Accept a subscription request.",
                options: [.flag("all", help: "Accept every pending request.")],
                positionals: [
                    PositionalSpec(
                        "JID", help: "Whose request to accept.", optional: true,
                        completion: .contacts)
                ]),
            CommandSpec(
                "rename", summary: "Change the name shown for a contact.",
                positionals: [contact, PositionalSpec("NAME", help: "The new name.")]),
            CommandSpec(
                "group", summary: "Set the groups of a contact.",
                positionals: [
                    contact,
                    PositionalSpec(
                        "GROUP", help: "A group.", optional: true,
                        variadic: true, completion: .custom("groups")),
                ]),
            CommandSpec(
                "import", summary: "Add every contact listed in a file.",
                discussion: ["The file holds one JID per line, or the JSON printed by list --json."],
                positionals: [
                    PositionalSpec(
                        "FILE", help: "The list, or - for stdin.",
                        completion: .file(extensions: ["json", "txt"]))
                ]),
            CommandSpec("dump", summary: "Dump the raw roster.", hidden: true),
        ],
        exitCodes: exitCodes,
        environment: [
            Definition("XMPP_ACCOUNT", "Account used when --account is not given."),
            Definition("NO_COLOR", "When set, print no colours."),
        ],
        files: files,
        examples: [
            Example(
                "xmpp-roster list --json | jq -r '.[] | select(.subscription == \"none\") | .jid'",
                "List the contacts with no subscription either way."),
            Example(
                "xmpp-roster pending --json | jq -r '.[].jid' | xargs -n1 xmpp-roster approve",
                "Accept every pending request, one by one."),
            Example(#"printf 'alice\nbob\n' | xmpp-roster import -"#, "Add two contacts on your own domain."),
        ],
        seeAlso: ["xmpp-login(1)", "xmpp-vcard(1)", "xmpp-tools(7)", "jq(1)"])

    static let login = ToolSpec(
        name: "xmpp-login",
        summary: "log in to XMPP accounts and keep their sessions",
        description: ["xmpp-login JID authenticates once and stores what is needed to log in again."],
        version: "0.1.0",
        commonOptions: common,
        subcommands: [
            CommandSpec(
                "login", summary: "Log in, cache the session and make the account active.",
                options: [
                    OptionSpec(
                        "password-file", value: "FILE", help: "Read the password from this file.",
                        completion: .anyFile),
                    .flag("password-stdin", help: "Read the password from stdin."),
                ],
                positionals: [PositionalSpec("JID", help: "The account.", completion: .accounts)],
                hidden: true),
            CommandSpec(
                "status", summary: "Show whether a session is cached and still valid.",
                positionals: [
                    PositionalSpec(
                        "JID", help: "The account.", optional: true,
                        completion: .accounts)
                ]),
            CommandSpec("list", summary: "List the known accounts."),
            CommandSpec(
                "switch", summary: "Make another known account the active one.",
                positionals: [PositionalSpec("JID", help: "The account.", completion: .accounts)]),
        ],
        defaultSubcommand: "login",
        exitCodes: exitCodes,
        environment: [Definition("XMPP_PASSWORD", "Password, when neither --password-file nor --password-stdin.")],
        files: files,
        examples: [Example("xmpp-login alice@example.org --password-file ~/.alice", "Log in as Alice.")],
        seeAlso: ["xmpp-roster(1)", "xmpp-tools(7)"])

    static let avatar = ToolSpec(
        name: "xmpp-avatar",
        summary: "publish, fetch and resize XMPP avatars",
        version: "0.1.0",
        commonOptions: common,
        subcommands: [
            CommandSpec(
                "set", summary: "Publish an image as the avatar.",
                options: [
                    OptionSpec(
                        "size", value: "PIXELS", help: "Edge of the square avatar.",
                        default: "100"),
                    OptionSpec(
                        "fit", value: "MODE", help: "How to make the image square.",
                        default: "crop", completion: .values(["crop", "pad"])),
                ],
                positionals: [
                    PositionalSpec(
                        "IMAGE", help: "A PNG or JPEG file.",
                        completion: .file(extensions: ["png", "jpg", "jpeg"]))
                ]),
            CommandSpec(
                "get", summary: "Fetch the avatar of a contact.",
                options: [
                    OptionSpec(
                        "output", short: "o", value: "FILE", help: "Where to write it.",
                        completion: .anyFile),
                    OptionSpec(
                        "out-dir", value: "DIR", help: "Write it in this directory.",
                        completion: .directory),
                ],
                positionals: [
                    PositionalSpec(
                        "JID", help: "Whose avatar.", optional: true,
                        completion: .contacts)
                ]),
        ],
        seeAlso: ["xmpp-vcard(1)"])
}
