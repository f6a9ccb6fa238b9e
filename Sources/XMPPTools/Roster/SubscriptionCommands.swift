import TextFormats
import XMLTree
import XMPPServices
import XMPPStanzas

/// `xmpp-roster pending|approve|deny`: subscription requests (RFC 6121 §3). The server
/// redelivers waiting requests when the account sends initial presence, so `pending` and
/// `approve --all` go online briefly, with a negative priority.
struct SubscriptionCommands {
    let invocation: Invocation
    var json: Bool { invocation.common.json }

    func pending() throws {
        let session = try RosterSession.open(invocation.context)
        defer { session.close() }
        let requests = try SubscriptionRequest.gather(session)
        if json {
            Output.line(JSONValue.array(requests.map { r in
                .object([("jid", .string(r.jid.description)), ("nick", .optional(r.nick)), ("status", .optional(r.status))])
            }).pretty)
            return
        }
        RosterOutput.table(header: ["JID", "NICK", "MESSAGE"],
                           rows: requests.map { [$0.jid.description, $0.nick ?? "", $0.status ?? ""] })
    }

    func approve() throws {
        let all = invocation.command.flag("all")
        let text = invocation.command.argument("JID")
        guard all != (text != nil) else { throw ToolFailure(.usage, "approve needs a JID or --all (not both)") }
        let account = try invocation.context.accountJID()
        let single = try text.map { t throws(ToolFailure) in try ContactAddress.resolve(t, account: account) }
        let session = try RosterSession.open(invocation.context)
        defer { session.close() }
        try session.sync()
        let addBack = invocation.command.flag("add-back")
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
        let subscribedBack = Set(back)
        if json {
            Output.line(JSONValue.array(approved.map { jid in
                .object([("jid", .string(jid.description)), ("result", .string("approved")),
                         ("subscribed_back", .bool(subscribedBack.contains(jid)))])
            }).pretty)
        } else if !invocation.common.quiet {
            if approved.isEmpty { Output.line("No subscription requests are waiting.") }
            for jid in approved {
                Output.textLine("Approved \(jid)" + (subscribedBack.contains(jid) ? " and asked to see their presence." : "."))
            }
        }
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

    func deny() throws {
        let account = try invocation.context.accountJID()
        let jid = try ContactAddress.resolve(invocation.command.argument("JID") ?? "", account: account)
        let session = try RosterSession.open(invocation.context)
        defer { session.close() }
        try session.sync()
        _ = try session.barrier(sending: [PresenceService.subscription(.unsubscribed, to: jid).element])
        if json {
            Output.line(JSONValue.object([("jid", .string(jid.description)), ("result", .string("denied"))]).pretty)
        } else if !invocation.common.quiet {
            Output.textLine("Denied \(jid): they do not see your presence.")
        }
    }
}
