import Arguments

/// `xmpp-login`: its page-level declaration and its subcommands.
public enum LoginTool {
    static let tool = Tool(
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
        commands: [Login.self, Status.self, List.self, Switch.self, ForgetSettings.self, Logout.self],
        defaultCommand: Login.self,
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

    /// The declaration that drives parsing, help, man page and completions.
    public static var spec: ToolSpec { tool.spec }

    /// Runs the tool.
    public static func main() -> Never { tool.main() }
}
