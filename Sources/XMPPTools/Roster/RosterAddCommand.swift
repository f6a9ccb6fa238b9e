import Arguments
import XMPPServices
import XMPPStanzas

extension RosterTool {
    /// `xmpp-roster add JID`: a roster set for a new contact and a subscription request, or, for
    /// a contact already there, the name and groups given and a request when none is in place.
    struct Add: ToolCommand {
        static let name = Option<String>("name", value: "NAME", help: "The name to show for the contact.")
        static let group = Option<String>("group", value: "GROUP", help: "Put the contact in GROUP (repeat for several).",
                                          repeatable: true)
        static let noSubscribe = Flag("no-subscribe", help: "Only add the roster item; send no subscription request.")
        static let contact = RosterTool.contact

        static let spec = CommandSpec(
            "add", summary: "Add a contact and ask to see their presence.",
            discussion: ["Adding a contact who is already there changes the name and groups given and keeps the others. "
                         + "If you do not see their presence and no request of yours is pending (subscription none "
                         + "or from: they removed you, refused you, or were added with --no-subscribe), it asks "
                         + "again, unless --no-subscribe is given (subscription_requested is true with --json). "
                         + "Adding yourself is exit status 9."],
            options: [name, group, noSubscribe] + PasswordSource.declarations,
            positionals: [contact],
            examples: [Example("xmpp-roster add bob --name Bob --group Friends --group Work",
                               "Add bob on your domain in two groups and ask for his presence.")])

        let edit: ContactEdit
        let contactText: String
        /// nil: not given; .some(nil): given empty, which removes the name.
        let name: String??
        let groups: [String]
        let subscribe: Bool

        init(_ invocation: Invocation) throws {
            let command = invocation.command
            edit = ContactEdit(context: invocation.passwordContext)
            contactText = command.argument(Self.contact.name) ?? ""
            do {
                name = try command.value(Self.name).map { $0.isEmpty ? nil : $0 }
                groups = try command.values(Self.group)
            } catch {
                throw ToolFailure(.usage, error.reason.description)
            }
            subscribe = !command[Self.noSubscribe]
        }

        func run() throws {
            let (session, jid) = try edit.open(contactText)
            defer { session.close() }
            try ContactEdit.checkGroups(groups)
            if let existing = session.roster[jid] {
                try addAgain(existing, session: session)
                return
            }
            let item = RosterItem(jid: jid, name: name ?? nil, groups: groups)
            try RosterService.set(item, on: session.connection)
            _ = try session.barrier(sending: subscribe ? [PresenceService.subscription(.subscribe, to: jid).element] : [])
            edit.report(session.roster[jid] ?? item, action: "added", subscribed: subscribe,
                        text: "Added \(jid)" + (subscribe ? " and asked to see their presence." : "."))
        }

        /// `add` of a contact already there: the name and groups given replace the old ones (the
        /// others stay), and when we do not see their presence and no request of ours is pending
        /// (they removed us, denied us, or were added with --no-subscribe), we ask again.
        private func addAgain(_ existing: RosterItem, session: RosterSession) throws {
            let jid = existing.jid
            var changed = existing
            if let name { changed.name = name }
            if !groups.isEmpty { changed.groups = RosterItem(jid: jid, groups: groups).groups }
            let updated = changed != existing
            let askAgain = subscribe && !existing.subscription.receivesPresence && !existing.ask
            if updated { try RosterService.set(changed, on: session.connection) }
            if updated || askAgain {
                _ = try session.barrier(sending: askAgain ? [PresenceService.subscription(.subscribe, to: jid).element] : [])
            }
            let done = [updated ? "updated its name and groups" : nil, askAgain ? "asked again to see their presence" : nil]
                .compactMap { $0 }.joined(separator: " and ")
            edit.report(session.roster[jid] ?? changed, action: updated ? "updated" : "unchanged", subscribed: askAgain,
                        text: "\(jid) is already in the roster; " + (done.isEmpty ? "nothing to change." : done + "."))
        }
    }
}
