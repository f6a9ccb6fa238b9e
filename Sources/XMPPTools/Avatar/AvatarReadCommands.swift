import TextFormats
import Arguments
import XMPPServices
import XMPPStanzas

/// `xmpp-avatar get|info`: find an avatar (PEP, then vCard; or the cache) and write or describe it.
struct AvatarReadCommands {
    let context: AccountContext
    let command: ParsedCommand
    var env: ToolEnvironment { context.environment }
    var json: Bool { context.common.json }

    /// Writes the avatar's bytes to `-o FILE` or standard output.
    func get() throws {
        let output = command.string("output")
        try ImageFiles.checkBinaryDestination(output, json: json)
        let found = try find()
        try Output.write(found.bytes, toFileOrStdout: output)
        guard !ImageFiles.isStdout(output) else { return }
        if json {
            Output.line(JSONValue.object(describe(found) + [("file", .string(output ?? "-"))]).pretty)
        } else if !context.common.quiet {
            Output.line(found.hash)
        }
    }

    /// Prints the avatar's hash, type, size, dimensions and source.
    func info() throws {
        let found = try find()
        if json {
            Output.line(JSONValue.object(describe(found)).pretty)
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

    /// The JSON members both commands print.
    private func describe(_ found: FoundAvatar) -> [(String, JSONValue)] {
        [
            ("jid", .string(found.jid.description)), ("hash", .string(found.hash)), ("type", .optional(found.type)),
            ("bytes", .int(found.bytes.count)), ("width", found.width.map(JSONValue.int) ?? .null),
            ("height", found.height.map(JSONValue.int) ?? .null), ("source", .string(found.source.rawValue)),
            ("cached", .bool(found.fromCache)),
        ]
    }

    /// The avatar of the JID argument, from the cache (`--cached`) or the server; exit 4 when none.
    private func find() throws -> FoundAvatar {
        let sources = try AvatarLookup.sources(command.string("source"))
        let account = try context.accountJID()
        let jid = try AvatarLookup.target(command.argument("JID"), account: account)
        let lookup = AvatarLookup(environment: env, account: account)
        let cache = lookup.openCache()
        if command.flag("cached") {
            guard let found = lookup.cached(jid, sources: sources, cache: cache) else {
                throw ToolFailure(.notFound, "no cached avatar for \(jid) (fetch it once without --cached)")
            }
            return found
        }
        let (connection, _) = try context.connectWithSession()
        defer { connection.close() }
        guard let found = try lookup.fetch(jid, sources: sources, on: connection, cache: cache) else {
            do { try cache?.forget(account: account, jid: jid) } catch { env.warn("cache not updated: \(error)") }
            let where_ = sources.count == 1 ? " in its \(sources[0].label)" : ""
            throw ToolFailure(.notFound, "\(jid) has no avatar\(where_)")
        }
        do { try cache?.store(found.entry(now: env.now), account: account) } catch { env.warn("cache not updated: \(error)") }
        return found
    }
}

private extension String {
    /// The string padded with spaces to `width` characters.
    func padded(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
