import Arguments
import TextFormats
import XMPPServices

extension AdHocTool {
    /// `xmpp-adhoc list`: the commands an entity offers the account (disco#items on the commands node).
    struct List: ToolCommand {
        static let spec = CommandSpec(
            "list", summary: "List the commands the server (or --to JID) offers the account.",
            discussion: ["One command a line: its node and its name, tab-separated. With --json, an array of objects "
                         + "with the keys node, name and jid. A server lists administration commands only to its "
                         + "administrators, so the list also tells whether the account is one."],
            options: [AdHocTool.to],
            examples: [Example("xmpp-adhoc list --json | jq -r '.[].node'", "Print every command node.")])

        let context: AccountContext
        let toText: String?

        init(_ invocation: Invocation) throws {
            context = invocation.context
            toText = try invocation.command.value(AdHocTool.to)
        }

        func run() throws {
            let (connection, jid) = try context.connectWithSession()
            defer { connection.close() }
            let entity = try CommandTarget.entity(toText, account: jid)
            let items = try AdHocService.commands(on: connection, at: entity)
            if context.common.json {
                Output.line(JSONValue.array(items.map {
                    .object([("node", .optional($0.node)), ("name", .optional($0.name)), ("jid", .string($0.jid.description))])
                }).pretty)
                return
            }
            RosterOutput.table(header: ["NODE", "NAME"], rows: items.map { [$0.node ?? "", $0.name ?? ""] })
        }
    }
}
