import Arguments
import XMPPServices
import TextFormats
import XMPPStanzas

extension RosterTool {
    /// `xmpp-roster approve JID|--all`: answers subscription requests with `subscribed`, and
    /// with --add-back asks for the contact's presence in return once the approval took.
    struct Approve: ToolCommand {
        static let all = Flag("all", help: "Approve every pending request.")
        static let addBack = Flag("add-back", help: "Also ask to see their presence in return, as auto-accepting clients do.")
        static let contact = PositionalSpec("JID", help: "The contact who asked.", optional: true, completion: .contacts)

        static let spec = CommandSpec(
            "approve", summary: "Let a contact (or everyone waiting, with --all) see your presence.",
            discussion: ["Approving someone who has not asked is refused with exit status 4 and leaves nothing "
                         + "behind: the answer would be a pre-approval (RFC 6121 §3.4), which lets in whoever asks "
                         + "from that address later, and Prosody adds a roster item to hold it; the tool undoes "
                         + "both. --add-back asks for their presence only once the approval took."],
            options: [all, addBack] + PasswordSource.declarations,
            positionals: [contact],
            examples: [Example("xmpp-roster approve --all --add-back", "Accept every waiting request and subscribe back.")])

        let context: AccountContext
        /// The contact named, or nil for --all.
        let contactText: String?
        let addBack: Bool

        init(_ invocation: Invocation) throws {
            context = invocation.passwordContext
            contactText = invocation.command.argument(Self.contact.name)
            addBack = invocation.command[Self.addBack]
            // A rule relates options only; "exactly one of a JID and --all" stays a check here.
            guard invocation.command[Self.all] != (contactText != nil) else {
                throw ToolFailure(.usage, "approve needs a JID or --all (not both)")
            }
        }

        func run() throws {
            let account = try context.accountJID()
            let single = try contactText.map { t throws(ToolFailure) in try ContactAddress.resolve(t, account: account) }
            let session = try RosterSession.open(context)
            defer { session.close() }
            try session.sync()
            let approved: [JID]
            if let single {
                try approveOne(single, session: session)
                approved = [single]
            } else {
                approved = try SubscriptionRequest.gather(session).map(\.jid)
                _ = try session.barrier(sending: approved.map { PresenceService.subscription(.subscribed, to: $0).element })
            }
            // Asked only once the approval took: a refused one leaves nothing behind.
            let back = addBack ? approved.filter { jid in
                let item = session.roster[jid]
                return !(item?.subscription.receivesPresence ?? false) && !(item?.ask ?? false)
            } : []
            if !back.isEmpty {
                _ = try session.barrier(sending: back.map { PresenceService.subscription(.subscribe, to: $0).element })
            }
            report(approved, subscribedBack: Set(back))
        }

        /// Answers `jid`'s request. Sent to someone who has not asked, `subscribed` is a pre-approval
        /// (RFC 6121 §3.4) that would let in whoever asks from that address later, and Prosody adds a
        /// roster item to hold it: when no push shows the contact now receiving our presence, the
        /// approval is refused (exit status 4) and undone. Only the server can tell whether a request
        /// waits (ejabberd does not redeliver them to a negative-priority resource), so the answer
        /// itself asks it. An item this added is removed; an item that was there is set again as it
        /// was, which drops Prosody's pre-approval (a roster set keeps only name, groups and state).
        private func approveOne(_ jid: JID, session: RosterSession) throws {
            let before = session.roster[jid]
            _ = try session.barrier(sending: [PresenceService.subscription(.subscribed, to: jid).element])
            if session.roster[jid]?.subscription.sendsPresence ?? false { return }
            if let before {
                try RosterService.set(before, on: session.connection)
                _ = try session.barrier()
            } else if session.roster[jid] != nil {
                try RosterService.remove(jid, on: session.connection)
                _ = try session.barrier()
            }
            throw ToolFailure(.notFound, "\(jid) has not asked to see your presence; nothing was approved")
        }

        private func report(_ approved: [JID], subscribedBack: Set<JID>) {
            if context.common.json {
                Output.line(JSONValue.array(approved.map { jid in
                    .object([("jid", .string(jid.description)), ("result", .string("approved")),
                             ("subscribed_back", .bool(subscribedBack.contains(jid)))])
                }).pretty)
            } else if !context.common.quiet {
                if approved.isEmpty { Output.line("No subscription requests are waiting.") }
                for jid in approved {
                    Output.textLine("Approved \(jid)" + (subscribedBack.contains(jid) ? " and asked to see their presence." : "."))
                }
            }
        }
    }
}
