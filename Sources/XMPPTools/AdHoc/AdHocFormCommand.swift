import Arguments
import TextFormats
import XMPPServices
import XMPPStanzas

extension AdHocTool {
    /// `xmpp-adhoc form NODE`: starts the command, shows its first form, and cancels it.
    struct Form: ToolCommand {
        static let spec = CommandSpec(
            "form", summary: "Show the form a command asks to fill in first, then cancel it.",
            discussion: ["Nothing is changed on the server: the command's session is cancelled once its form has "
                         + "arrived. Each field a line: its name (what --field NAME=VALUE sets), type, whether it is "
                         + "required, its label and preset values; a list field's choices follow, one a line. With "
                         + "--json, an object with the keys node, status, notes, title, instructions, fields (each "
                         + "with name, type, label, required, values and options), reported and items. A command "
                         + "that needs no form completes at once, as run would: form says so and shows its result."],
            options: [AdHocTool.to], positionals: [AdHocTool.node],
            examples: [Example("xmpp-adhoc form add-user", "Show what the add-user command asks for.")])

        let context: AccountContext
        let toText: String?
        let nodeText: String

        init(_ invocation: Invocation) throws {
            context = invocation.context
            toText = try invocation.command.value(AdHocTool.to)
            nodeText = invocation.command.argument(AdHocTool.node.name) ?? ""
        }

        func run() throws {
            let (connection, jid) = try context.connectWithSession()
            defer { connection.close() }
            let target = try CommandTarget.resolve(nodeText, entity: try CommandTarget.entity(toText, account: jid), on: connection)
            let answer = try AdHocService.start(target.node, on: connection, at: target.entity)
            if answer.status == .executing { try AdHocService.cancel(answer, on: connection, at: target.entity) }
            if context.common.json {
                Output.line(JSONValue.object([("node", .string(answer.node)), ("status", .optional(answer.status?.rawValue)),
                                              ("notes", AdHocOutput.json(answer.notes))] + AdHocOutput.json(answer.form)).pretty)
                return
            }
            guard answer.status == .executing else {
                if !context.common.quiet { Output.textLine("\(answer.node) needs no form; it ran and \(answer.status?.rawValue ?? "answered"):") }
                return AdHocOutput.printResult(answer)
            }
            for note in answer.notes { Output.textLine(note.kind.rawValue + ": " + note.text) }
            if let form = answer.form { AdHocOutput.printFields(form) }
        }
    }
}
