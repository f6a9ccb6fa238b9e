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

    /// A request waiting for an answer.
    struct Request {
        var jid: JID
        var nick: String?
        var status: String?
    }

    func pending() throws {
        let session = try RosterSession.open(invocation.context)
        defer { session.close() }
        let requests = try gatherRequests(session)
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
        let targets = try single.map { [$0] } ?? gatherRequests(session).map(\.jid)
        let addBack = invocation.command.flag("add-back")
        var out: [XMLElement] = []
        var subscribedBack: Set<JID> = []
        for jid in targets {
            out.append(PresenceService.subscription(.subscribed, to: jid).element)
            let item = session.roster[jid]
            if addBack && !(item?.subscription.receivesPresence ?? false) && !(item?.ask ?? false) {
                out.append(PresenceService.subscription(.subscribe, to: jid).element)
                subscribedBack.insert(jid)
            }
        }
        _ = try session.barrier(sending: out)
        let results = targets.map { jid -> (JID, String) in
            let item = session.roster[jid]
            // No push turning the item to from/both: nobody had asked, so it stands as a pre-approval.
            return (jid, item?.subscription.sendsPresence ?? false ? "approved" : "pre-approved")
        }
        if json {
            Output.line(JSONValue.array(results.map { jid, result in
                .object([("jid", .string(jid.description)), ("result", .string(result)),
                         ("subscribed_back", .bool(subscribedBack.contains(jid)))])
            }).pretty)
        } else if !invocation.common.quiet {
            if results.isEmpty { Output.line("No subscription requests are waiting.") }
            for (jid, result) in results {
                let back = subscribedBack.contains(jid) ? " and asked to see their presence" : ""
                if result == "approved" {
                    Output.line("Approved \(jid)\(back).")
                } else {
                    Output.line("\(jid) has not asked: sent a pre-approval, applied when they ask (where the server supports it)\(back).")
                }
            }
        }
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
            Output.line("Denied \(jid): they do not see your presence.")
        }
    }

    /// Goes online (negative priority) and collects the subscription requests the server
    /// redelivers before the ping's answer, one per contact.
    private func gatherRequests(_ session: RosterSession) throws -> [Request] {
        let events = try session.barrier(sending: [PresenceService.available(priority: -1).element])
        var seen = Set<JID>()
        var requests: [Request] = []
        for case .presence(let p) in events where p.type == .subscribe {
            guard let from = p.from?.bare, from != session.account, seen.insert(from).inserted else { continue }
            requests.append(Request(jid: from, nick: p.nick, status: p.status))
        }
        return requests
    }
}
