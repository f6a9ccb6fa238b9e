import Arguments
import TextFormats
import XMPPServices

extension RosterTool {
    /// `xmpp-roster pending`: the subscription requests the server redelivers when the account
    /// goes online (briefly, with a negative priority).
    struct Pending: ToolCommand {
        static let spec = CommandSpec(
            "pending", summary: "List subscription requests waiting for an answer.",
            discussion: ["The server redelivers waiting requests when the account comes online; pending goes online "
                         + "for a moment with a negative priority to collect them. Prosody redelivers them to such a "
                         + "resource; ejabberd only to resources with a priority of 0 or more (which would also take "
                         + "the account's offline messages), so there pending finds none and watch shows requests as "
                         + "they arrive."],
            options: PasswordSource.declarations, examples: [Example("xmpp-roster pending --json | jq -r '.[].jid'", "Print who waits for an answer.")])

        let context: AccountContext

        init(_ invocation: Invocation) { context = invocation.passwordContext }

        func run() throws {
            let session = try RosterSession.open(context)
            defer { session.close() }
            let requests = try SubscriptionRequest.gather(session)
            if context.common.json {
                Output.line(JSONValue.array(requests.map { r in
                    .object([("jid", .string(r.jid.description)), ("nick", .optional(r.nick)), ("status", .optional(r.status))])
                }).pretty)
                return
            }
            RosterOutput.table(header: ["JID", "NICK", "MESSAGE"],
                               rows: requests.map { [$0.jid.description, $0.nick ?? "", $0.status ?? ""] })
        }
    }
}
