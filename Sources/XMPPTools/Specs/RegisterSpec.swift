import Arguments

/// The command line of `xmpp-register`.
public enum RegisterSpec {
    /// The declaration that drives parsing, help, man page and completions.
    public static let spec = ToolSpec(
        name: "xmpp-register",
        summary: "create, change and delete XMPP accounts by in-band registration",
        description: [
            "xmpp-register creates accounts with in-band registration (XEP-0077) on a TLS-secured, unauthenticated "
                + "stream, answering plain registration fields or a data form. It changes the password of the "
                + "logged-in account and deletes it.",
            "With no subcommand word, the first argument is the JID to create. The password comes from "
                + "--password-file, --password-stdin, XMPP_PASSWORD or a prompt, never from the command line.",
        ],
        version: CommonSpec.version,
        commonOptions: CommonSpec.options,
        subcommands: [
            CommandSpec("create", summary: "Create the account JID.",
                        discussion: ["An existing account is exit status 5. A server that demands a CAPTCHA is exit status 8."],
                        options: CommonSpec.passwordOptions + [
                            .flag("login", help: "Also log in and cache a session, making the account active."),
                            OptionSpec("field", value: "NAME=VALUE", help: "Answer an extra registration field (e.g. email=a@b.c).",
                                       repeatable: true),
                        ],
                        positionals: [PositionalSpec("JID", help: "The account to create, user@domain.")]),
            CommandSpec("form", summary: "Show what the server asks for to register.",
                        positionals: [PositionalSpec("DOMAIN", help: "The server's domain.")]),
            CommandSpec("passwd", summary: "Change the password of the account and refresh its cached session.",
                        options: CommonSpec.passwordOptions),
            CommandSpec("delete", summary: "Delete the account from the server and forget its session.",
                        options: [.flag("yes", help: "Confirm: deleting cannot be undone.")]),
            batch,
        ],
        defaultSubcommand: "create",
        exitCodes: CommonSpec.exitCodes,
        environment: CommonSpec.environment,
        files: CommonSpec.files,
        examples: [
            Example("xmpp-register alice@example.org --login", "Create an account, asking for its password, and log in."),
            Example("xmpp-register form example.org --json | jq '.fields[].name'", "List the fields a server asks for."),
            Example("printf '%s\\n' \"$NEWPW\" | xmpp-register passwd --password-stdin", "Change the password from a script."),
            Example("xmpp-register delete --yes -a old@example.org", "Delete an account."),
            Example("xmpp-register batch staff.csv --jobs 8 --report staff-report.csv", "Create the accounts listed in a CSV file."),
        ],
        seeAlso: ["xmpp-login(1)", "xmpp-tools(7)"]
    )
}
