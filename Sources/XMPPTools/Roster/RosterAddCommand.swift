import Arguments
import XMPPServices
import XMPPStanzas

extension RosterTool {
    /// `xmpp-roster add JID`: a roster set for a new contact and a subscription request, or, for
    /// a contact already there, the name and groups given and a request when none is in place.
    struct Add: ToolCommand {
        static let name = Option<String>("name", value: "NAME", help: "The name to show for the contact.")
        static let group = Option<String>("group", value: "GROUP", help: "Put the contact in GROUP (repeat for several).",
                                          repeatable: true, completion: RosterCompletion.groups)
        static let noSubscribe = Flag("no-subscribe", help: "Only add the roster item; send no subscription request.")
        static let contacts = PositionalSpec("JID", help: "The contacts; a name without '@' means that name on the account's domain.",
                                             variadic: true, completion: .contacts)

        static let spec = CommandSpec(
            "add", summary: "Add a contact and ask to see their presence.",
            discussion: ["Adding a contact who is already there changes the name and groups given and keeps the others. "
                         + "If you do not see their presence and no request of yours is pending (subscription none "
                         + "or from: they removed you, refused you, or were added with --no-subscribe), it asks "
                         + "again, unless --no-subscribe is given (subscription_requested is true with --json). "
                         + "Adding yourself is exit status 9.",
                         "Several JIDs are added over one connection, each as above, in the order given (--name "
                         + "then applies to one contact only); with --json the answer is then an array of the "
                         + "objects one JID prints. Every JID is checked before anything is sent. This puts the "
                         + "contacts in your own roster only and asks each for a subscription: each contact still "
                         + "approves it. For a group whose members all see each other without asking (a class, a "
                         + "staff room), use the server's shared rosters instead (Prosody mod_groups, ejabberd "
                         + "mod_shared_roster): the server then shows the group to every member, on every client, "
                         + "and keeps it as members come and go, but nobody can change it from a client."],
            options: [name, group, noSubscribe] + PasswordSource.declarations,
            positionals: [contacts],
            examples: [Example("xmpp-roster add bob --name Bob --group Friends --group Work",
                               "Add bob on your domain in two groups and ask for his presence."),
                       Example("xmpp-roster add alice bob carol --group Teachers",
                               "Add three colleagues to the group Teachers in one go.")])

        let edit: ContactEdit
        let contactTexts: [String]
        /// nil: not given; .some(nil): given empty, which removes the name.
        let name: String??
        let groups: [String]
        let subscribe: Bool

        init(_ invocation: Invocation) throws {
            let command = invocation.command
            edit = ContactEdit(context: invocation.passwordContext)
            contactTexts = command.argumentList(Self.contacts.name)
            do {
                name = try command.value(Self.name).map { $0.isEmpty ? nil : $0 }
                groups = try command.values(Self.group)
            } catch {
                throw ToolFailure(.usage, error.reason.description)
            }
            subscribe = !command[Self.noSubscribe]
            if contactTexts.count > 1 && name != nil {
                throw ToolFailure(.usage, "--name names one contact; give it with one JID")
            }
        }

        func run() throws {
            try ContactEdit.checkGroups(groups)
            let (session, jids) = try edit.open(contactTexts)
            defer { session.close() }
            var reports: [ContactEdit.Report] = []
            for jid in jids {
                if let existing = session.roster[jid] {
                    reports.append(try addAgain(existing, session: session))
                    continue
                }
                let item = RosterItem(jid: jid, name: name ?? nil, groups: groups)
                try RosterService.set(item, on: session.connection)
                _ = try session.barrier(sending: subscribe ? [PresenceService.subscription(.subscribe, to: jid).element] : [])
                reports.append(ContactEdit.Report(item: session.roster[jid] ?? item, action: "added", subscribed: subscribe,
                                                  text: "Added \(jid)" + (subscribe ? " and asked to see their presence." : ".")))
            }
            edit.report(reports, asArray: jids.count > 1)
        }

        /// `add` of a contact already there: the name and groups given replace the old ones (the
        /// others stay), and when we do not see their presence and no request of ours is pending
        /// (they removed us, denied us, or were added with --no-subscribe), we ask again.
        private func addAgain(_ existing: RosterItem, session: RosterSession) throws -> ContactEdit.Report {
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
            return ContactEdit.Report(item: session.roster[jid] ?? changed, action: updated ? "updated" : "unchanged", subscribed: askAgain,
                                      text: "\(jid) is already in the roster; " + (done.isEmpty ? "nothing to change." : done + "."))
        }
    }
}
