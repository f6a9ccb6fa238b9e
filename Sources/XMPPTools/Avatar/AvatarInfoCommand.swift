import Arguments
import TextFormats

extension AvatarTool {
    /// `xmpp-avatar info [JID]`: describes an avatar without writing it.
    struct Info: ToolCommand {
        static let spec = CommandSpec(
            "info", summary: "Show an avatar's SHA-1, type, size in bytes, dimensions and source (pep or vcard).",
            options: [AvatarQuery.cached, AvatarQuery.source] + PasswordSource.declarations,
            positionals: [AvatarQuery.jid])

        let query: AvatarQuery

        init(_ invocation: Invocation) throws { query = try AvatarQuery(invocation) }

        /// Prints the avatar's hash, type, size, dimensions and source.
        func run() throws {
            let found = try query.find()
            if query.context.common.json {
                Output.line(JSONValue.object(found.jsonMembers).pretty)
                return
            }
            let rows: [(String, String)] = [
                ("jid", found.jid.description), ("hash", found.hash), ("type", found.type ?? "-"),
                ("bytes", String(found.bytes.count)), ("width", found.width.map(String.init) ?? "-"),
                ("height", found.height.map(String.init) ?? "-"), ("source", found.source.rawValue),
            ]
            for (key, value) in rows {
                let shown = TerminalText.escaped(value)  // the type is the publisher's text
                Output.line(Output.stdoutIsTTY ? (key + ":").padded(8) + shown : key + "\t" + shown)
            }
        }
    }
}

private extension String {
    /// The string padded with spaces to `width` characters.
    func padded(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
