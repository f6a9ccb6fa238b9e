import Arguments
import TextFormats
import XMPPServices

extension RosterTool {
    /// `xmpp-roster deny JID`: answers with `unsubscribed`, which refuses a request or revokes
    /// an approval.
    struct Deny: ToolCommand {
        static let contact = RosterTool.contact

        static let spec = CommandSpec(
            "deny", summary: "Refuse a subscription request, or revoke an approval.", options: PasswordSource.declarations, positionals: [contact],
            examples: [Example("xmpp-roster deny spammer@spam.example", "Refuse a request.")])

        let context: AccountContext
        let contactText: String

        init(_ invocation: Invocation) {
            context = invocation.passwordContext
            contactText = invocation.command.argument(Self.contact.name) ?? ""
        }

        func run() throws {
            let account = try context.accountJID()
            let jid = try ContactAddress.resolve(contactText, account: account)
            let session = try RosterSession.open(context)
            defer { session.close() }
            try session.sync()
            _ = try session.barrier(sending: [PresenceService.subscription(.unsubscribed, to: jid).element])
            if context.common.json {
                Output.line(JSONValue.object([("jid", .string(jid.description)), ("result", .string("denied"))]).pretty)
            } else if !context.common.quiet {
                Output.textLine("Denied \(jid): they do not see your presence.")
            }
        }
    }
}
