import Arguments

/// `xmpp-adhoc`: a server's ad-hoc commands (XEP-0050), listed and run from the shell.
public enum AdHocTool {
    static let tool = Tool(
        name: "xmpp-adhoc",
        summary: "list and run a server's ad-hoc commands (XEP-0050), such as its administration commands",
        description: [
            "xmpp-adhoc lists the ad-hoc commands (XEP-0050) that an XMPP server, or any other entity, offers to the "
                + "logged-in account, shows a command's form, and runs a command, answering each stage of its "
                + "form with --field NAME=VALUE. Servers list the administration commands of XEP-0133 (add a user, "
                + "change a user's password, delete a user, announce…) only to their administrators: Prosody with "
                + "mod_admin_adhoc for the accounts in admins, ejabberd with mod_configure for its configure rule.",
            "A command is named by its node, such as http://jabber.org/protocol/admin#add-user, or by what follows "
                + "the # of one node in the list (add-user), or by its name as the list shows it, ignoring case.",
            "For provisioning many accounts with these commands, see xmpp-register batch --admin, which keeps a "
                + "journal, resumes and reports as batch registration does.",
        ],
        commands: [List.self, Form.self, Run.self],
        examples: [
            Example("xmpp-adhoc list", "Show the commands the server offers the active account."),
            Example("xmpp-adhoc run add-user --field accountjid=carol@example.org --password-field password --password-field password-verify --password-file pw.txt",
                    "Create an account as an administrator, the password read from a file."),
            Example("xmpp-adhoc run get-online-users-list --json | jq -r '.fields[] | select(.name==\"onlineuserjids\") | .values[]'",
                    "Print the JIDs of the users online."),
        ],
        seeAlso: ["xmpp-register(1)", "xmpp-login(1)", "xmpp-tools(7)"]
    )

    /// The entity whose commands are meant (default: the account's server).
    static let to = Option<String>("to", value: "JID", help: "The entity whose commands are meant (default: the account's server).")
    /// The command argument of form and run.
    static let node = PositionalSpec("NODE", help: "The command: its node, the part of a listed node after '#', or its listed name.")

    /// The declaration that drives parsing, help, man page and completions.
    public static var spec: ToolSpec { tool.spec }

    /// Runs the tool.
    public static func main() -> Never { tool.main() }
}
