import Arguments

extension RosterTool {
    /// `xmpp-roster rename JID NAME`: changes the name shown for a contact; '' removes it.
    struct Rename: ToolCommand {
        static let contact = RosterTool.contact
        static let newName = PositionalSpec("NAME", help: "The new name.")

        static let spec = CommandSpec(
            "rename", summary: "Change the name shown for a contact ('' removes it).",
            options: PasswordSource.declarations, positionals: [contact, newName],
            examples: [Example("xmpp-roster rename bob@example.org 'Bob (work)'", "Change the name shown for a contact.")])

        let edit: ContactEdit
        let contactText: String
        let name: String

        init(_ invocation: Invocation) {
            edit = ContactEdit(context: invocation.passwordContext)
            contactText = invocation.command.argument(Self.contact.name) ?? ""
            name = invocation.command.argument(Self.newName.name) ?? ""
        }

        func run() throws {
            try edit.update(contactText) { item in
                item.name = name.isEmpty ? nil : name
                return name.isEmpty ? "Removed the name of \(item.jid)." : "Renamed \(item.jid) to \(name)."
            }
        }
    }
}
