import Arguments
import TextFormats
import XMPPStorage

extension LoginTool {
    /// `xmpp-login list`: the known accounts, offline.
    struct List: ToolCommand {
        static let spec = CommandSpec(
            "list", summary: "List the known accounts; * marks the active one.",
            examples: [
                Example("xmpp-login list --json | jq -r '.[] | select(.session) | .jid'",
                        "Print the JIDs of the accounts that have a session."),
            ])

        let context: AccountContext

        init(_ invocation: Invocation) { context = invocation.context }

        func run() throws {
            let env = context.environment
            let file = try env.accounts.load()
            let withSession = Set(SecureFile.list(env.paths.sessionsDirectory))
            let names = Set(file.accounts.keys).union(withSession).sorted()
            if context.common.json {
                Output.line(JSONValue.array(names.map { name in
                    let s = file.accounts[name]
                    return .object([
                        ("jid", .string(name)), ("active", .bool(file.active == name)),
                        ("session", .bool(withSession.contains(name))),
                        ("server", .optional(RememberedSettings.server(s))),
                        ("direct_tls", .bool(s?.directTLS ?? false)),
                        ("ca_file", .optional(s?.caFile)), ("pin", .optional(s?.pin)),
                    ])
                }).pretty)
                return
            }
            for name in names {
                let marker = file.active == name ? "*" : " "
                let note = withSession.contains(name) ? "" : "\t(no session)"
                Output.line("\(marker) \(name)\(note)")
            }
        }
    }
}
