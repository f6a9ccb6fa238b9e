import XMPPConnection
import XMPPServices
import XMPPStanzas

/// Which entity and which command a form or run means: `--to` (default: the account's server),
/// and NODE as a node, the part of a listed node after '#', or a listed name.
struct CommandTarget {
    /// nil: the account's own server.
    let entity: JID?
    let node: String

    /// Reads `--to` (a bare name means that name on the account's domain, as elsewhere).
    static func entity(_ text: String?, account: JID) throws(ToolFailure) -> JID? {
        guard let text else { return nil }
        do { return try JID(text.contains("@") || text.contains(".") ? text : text + "@" + account.domain) } catch {
            throw ToolFailure(.badInput, "invalid --to '\(text)': \(error)")
        }
    }

    /// The node `name` stands for: itself when it looks like a node (a URI or has '#'),
    /// else the one listed command whose node ends in `#name` or whose name is `name` (any case).
    static func resolve(_ name: String, entity: JID?, on connection: Connection) throws -> CommandTarget {
        if name.contains(":") || name.contains("#") { return CommandTarget(entity: entity, node: name) }
        let items = try AdHocService.commands(on: connection, at: entity)
        let wanted = name.lowercased()
        let matches = items.filter {
            $0.node == name || ($0.node ?? "").lowercased().hasSuffix("#" + wanted) || ($0.name ?? "").lowercased() == wanted
        }
        guard let first = matches.first, let node = first.node else {
            throw ToolFailure(.notFound, "no command '\(name)' in the list the server gives this account"
                              + " (xmpp-adhoc list shows it; an administration command is listed only to administrators)")
        }
        guard matches.count == 1 else {
            throw ToolFailure(.usage, "'\(name)' matches several commands: " + matches.compactMap(\.node).joined(separator: ", "))
        }
        return CommandTarget(entity: entity, node: node)
    }
}
