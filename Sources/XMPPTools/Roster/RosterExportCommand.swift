import Arguments
import TextFormats

extension RosterTool {
    /// `xmpp-roster export`: the synced roster as JSON (as `list --json` prints it, without
    /// presence) or CSV, for `import`.
    struct Export: ToolCommand {
        /// What --format writes.
        enum Format: String, CaseIterable, Sendable {
            case json, csv
        }

        static let format = Option<Format>.choice("format", value: "FORMAT", help: "json (default) or csv.", default: .json)

        static let spec = CommandSpec(
            "export", summary: "Print the roster (JID, name, groups, subscription) as JSON or CSV.",
            options: [format] + PasswordSource.declarations,
            examples: [Example("xmpp-roster export --format csv > roster.csv", "Save the roster for a spreadsheet.")])

        let context: AccountContext
        let format: Format

        init(_ invocation: Invocation) throws {
            context = invocation.passwordContext
            do { format = try invocation.command.value(Self.format) ?? .json } catch {
                throw ToolFailure(.usage, error.reason.description)
            }
        }

        func run() throws {
            let session = try RosterSession.open(context)
            defer { session.close() }
            try session.sync()
            let items = session.takeItems()
            switch format {
            case .csv: Output.out(RosterFile.csv(items))
            case .json: Output.line(JSONValue.array(items.map { RosterOutput.json($0, presence: nil) }).pretty)
            }
        }
    }
}
