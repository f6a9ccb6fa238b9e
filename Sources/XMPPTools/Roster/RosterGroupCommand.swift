import Arguments
import XMPPStanzas

extension RosterTool {
    /// `xmpp-roster group JID [GROUP…]`: replaces a contact's groups.
    struct Group: ToolCommand {
        static let contact = RosterTool.contact
        static let groups = PositionalSpec("GROUP", help: "Groups, replacing the current ones.", optional: true, variadic: true,
                                         completion: RosterCompletion.groups)

        static let spec = CommandSpec(
            "group", summary: "Set the groups of a contact (none given: no groups).",
            options: PasswordSource.declarations, positionals: [contact, groups],
            examples: [Example("xmpp-roster group bob Friends Family", "Put bob in exactly the groups Friends and Family.")])

        let edit: ContactEdit
        let contactText: String
        let groups: [String]

        init(_ invocation: Invocation) {
            edit = ContactEdit(context: invocation.passwordContext)
            contactText = invocation.command.argument(Self.contact.name) ?? ""
            groups = invocation.command.argumentList(Self.groups.name)
        }

        func run() throws {
            try ContactEdit.checkGroups(groups)
            try edit.update(contactText) { item in
                item.groups = RosterItem(jid: item.jid, groups: groups).groups
                return item.groups.isEmpty ? "\(item.jid) is in no group now."
                    : "\(item.jid) is in \(item.groups.joined(separator: ", ")) now."
            }
        }
    }
}
