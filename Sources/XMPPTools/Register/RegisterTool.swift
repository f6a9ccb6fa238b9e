import Arguments

/// `xmpp-register`: its page-level declaration and its subcommands.
public enum RegisterTool {
    static let tool = Tool(
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
        commands: [Create.self, Form.self, Passwd.self, Delete.self, Disable.self, Enable.self, Batch.self, Sync.self,
                   SharedGroupsCommand.self, Handout.self, Invite.self],
        defaultCommand: Create.self,
        examples: [
            Example("xmpp-register alice@example.org --login",
                    "Create an account, asking twice for its password, and log in to it."),
            Example("openssl rand -base64 18 | tee pw.txt | xmpp-register bot@example.org --password-stdin",
                    "Create an account with a random password, kept in pw.txt."),
            Example("xmpp-register batch staff.csv --jobs 8 --report staff-report.csv", "Create the accounts listed in a CSV file."),
        ],
        seeAlso: ["xmpp-login(1)", "xmpp-tools(7)"]
    )

    /// The declaration that drives parsing, help, man page and completions.
    public static var spec: ToolSpec { tool.spec }

    /// Runs the tool.
    public static func main() -> Never { tool.main() }
}
