import Arguments
import TextFormats
import XMPPServices
import XMPPStanzas

extension RosterTool {
    /// `xmpp-roster groups`: the roster's groups with their contacts, from the server (versioned
    /// against the cache) or, with --cached, from the cache alone.
    struct Groups: ToolCommand {
        static let cached = Flag("cached", help: "Answer from the local cache without touching the network.")

        static let spec = CommandSpec(
            "groups", summary: "List the roster's groups and how many contacts each holds.",
            discussion: ["A contact in several groups counts in each; contacts in no group are not listed. "
                         + "With --json, each group is an object with the keys group, contacts (the count) and "
                         + "jids (sorted)."],
            options: [cached] + PasswordSource.declarations,
            examples: [
                Example("xmpp-roster groups --json | jq -r '.[] | select(.group == \"Work\") | .jids[]'",
                        "Print the contacts in group Work."),
            ])

        let context: AccountContext
        let fromCache: Bool

        init(_ invocation: Invocation) {
            context = invocation.passwordContext
            fromCache = invocation.command[Self.cached]
        }

        func run() throws {
            let groups = Self.members(of: try items())
            if context.common.json {
                Output.line(JSONValue.array(groups.map { name, jids in
                    .object([("group", .string(name)), ("contacts", .int(jids.count)),
                             ("jids", .array(jids.map(JSONValue.string)))])
                }).pretty)
                return
            }
            RosterOutput.table(header: ["GROUP", "CONTACTS"], rows: groups.map { [$0.name, String($0.jids.count)] })
        }

        /// Each group's name and its contacts' JIDs, both sorted.
        static func members(of items: [RosterItem]) -> [(name: String, jids: [String])] {
            var byGroup: [String: Set<String>] = [:]
            for item in items {
                for group in item.groups { byGroup[group, default: []].insert(item.jid.description) }
            }
            return byGroup.keys.sorted().map { ($0, byGroup[$0, default: []].sorted()) }
        }

        private func items() throws -> [RosterItem] {
            if fromCache { return try RosterSession.cachedItems(context) }
            let session = try RosterSession.open(context)
            defer { session.close() }
            try session.sync()
            return session.takeItems()
        }
    }
}
