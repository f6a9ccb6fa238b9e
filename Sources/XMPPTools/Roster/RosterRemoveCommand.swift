import Arguments
import XMPPServices

extension RosterTool {
    /// `xmpp-roster remove JID`: removes the roster item, which ends the subscriptions both ways.
    struct Remove: ToolCommand {
        static let contact = RosterTool.contact

        static let spec = CommandSpec(
            "remove", summary: "Remove a contact (and the subscriptions both ways); exit 4 if not in the roster.",
            options: PasswordSource.declarations, positionals: [contact],
            examples: [Example("xmpp-roster remove bob@example.org || echo 'not in the roster'",
                               "Remove a contact; exit status 4 says it was not there.")])

        let edit: ContactEdit
        let contactText: String

        init(_ invocation: Invocation) {
            edit = ContactEdit(context: invocation.passwordContext)
            contactText = invocation.command.argument(Self.contact.name) ?? ""
        }

        func run() throws {
            let (session, jid) = try edit.open(contactText)
            defer { session.close() }
            guard let item = session.roster[jid] else { throw ToolFailure(.notFound, "\(jid) is not in the roster") }
            try RosterService.remove(jid, on: session.connection)
            _ = try session.barrier()
            edit.report(item, action: "removed", subscribed: false, text: "Removed \(jid).")
        }
    }
}
