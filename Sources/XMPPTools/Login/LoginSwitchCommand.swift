import Arguments
import TextFormats

extension LoginTool {
    /// `xmpp-login switch JID`: makes another logged-in account the active one.
    struct Switch: ToolCommand {
        static let jid = PositionalSpec("JID", help: "The account.", completion: .accounts)

        static let spec = CommandSpec(
            "switch", summary: "Make another logged-in account the active one.",
            positionals: [jid],
            examples: [
                Example("xmpp-login switch work@example.com", "Use work@example.com from now on when no --account is given."),
            ])

        let context: AccountContext
        let jidText: String

        init(_ invocation: Invocation) {
            context = invocation.context
            jidText = invocation.command.argument(Self.jid.name) ?? ""
        }

        func run() throws {
            let env = context.environment
            let jid = try PasswordLogin.accountJID(jidText)
            guard try env.sessions.loadCached(jid) != nil else {
                throw ToolFailure(.auth, "no session for \(jid): log in with 'xmpp-login \(jid)'")
            }
            try env.accounts.update { $0.active = jid.description }
            if context.common.json {
                Output.line(JSONValue.object([("active", .string(jid.description))]).pretty)
            } else if !context.common.quiet {
                Output.line("\(jid) is now the active account.")
            }
        }
    }
}
