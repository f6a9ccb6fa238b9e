import Arguments

/// The command line of `xmpp-register`.
public enum RegisterSpec {
    /// The declaration that drives parsing, help, man page and completions.
    public static let spec = ToolSpec(
        name: "xmpp-register",
        summary: "create, change and delete XMPP accounts by in-band registration",
        description: [
            "xmpp-register creates accounts by in-band registration (XEP-0077) on a TLS-secured stream before "
                + "any login, answering the server's registration fields or data form. It also changes the "
                + "password of an account that is logged in, and deletes such an account.",
            "Without a command word, the first argument is the JID to create: xmpp-register JID is short for "
                + "xmpp-register create JID. New passwords come from --password-file, --password-stdin, "
                + "XMPP_PASSWORD or a prompt that asks twice, never from the command line.",
        ],
        version: CommonSpec.version,
        commonOptions: CommonSpec.options,
        subcommands: [
            CommandSpec("create", summary: "Create the account JID with a new password.",
                        discussion: ["An account that exists already is exit status 5. A server that refuses "
                                     + "registration, or asks for a CAPTCHA, is exit status 8."],
                        options: CommonSpec.passwordOptions + [
                            .flag("login", help: "Also log in and cache a session, making the account active."),
                            OptionSpec("field", value: "NAME=VALUE",
                                       help: "Answer one more field the server asks for, such as email=alice@example.org.",
                                       repeatable: true),
                        ],
                        positionals: [PositionalSpec("JID", help: "The account to create, user@domain.")],
                        examples: [
                            Example("xmpp-register create ops@example.org --field email=ops@example.org "
                                        + "--password-file pw.txt",
                                    "Create an account on a server that also asks for an e-mail address."),
                        ]),
            CommandSpec("form", summary: "Show the fields a server asks for before it creates an account.",
                        discussion: ["Needs no account: it connects, reads the registration form and leaves."],
                        positionals: [PositionalSpec("DOMAIN", help: "The server's domain.")],
                        examples: [
                            Example("xmpp-register form example.org --json | jq -r '.fields[].name'",
                                    "List the names of the fields example.org asks for."),
                        ]),
            CommandSpec("passwd", summary: "Change the password of the account and refresh its cached session.",
                        discussion: ["Sessions of the account cached elsewhere stop working: log in there again."],
                        options: CommonSpec.passwordOptions,
                        examples: [
                            Example("printf '%s\\n' \"$NEWPW\" | xmpp-register passwd --password-stdin",
                                    "Change the password of the active account from a script."),
                        ]),
            CommandSpec("delete", summary: "Delete the account from the server and forget its session.",
                        discussion: ["Without --yes nothing is deleted (exit status 2)."],
                        options: [.flag("yes", help: "Confirm: deleting cannot be undone.")],
                        examples: [
                            Example("xmpp-register delete --yes -a old@example.org", "Delete old@example.org."),
                        ]),
        ],
        defaultSubcommand: "create",
        exitCodes: CommonSpec.exitCodes,
        environment: CommonSpec.environment,
        files: CommonSpec.files,
        examples: [
            Example("xmpp-register alice@example.org --login",
                    "Create an account, asking twice for its password, and log in to it."),
            Example("openssl rand -base64 18 | tee pw.txt | xmpp-register bot@example.org --password-stdin",
                    "Create an account with a random password, kept in pw.txt."),
        ],
        seeAlso: ["xmpp-login(1)", "xmpp-tools(7)"]
    )
}
