import TextFormats
import XMPPStanzas

/// How contacts are shown: JSON objects with stable snake_case keys, and text rows for people.
enum RosterOutput {
    /// The JSON object of one contact; `presence` nil leaves presence out (export).
    static func json(_ item: RosterItem, presence: ContactPresence?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("jid", .string(item.jid.description)),
            ("name", .optional(item.name)),
            ("groups", .array(item.groups.map(JSONValue.string))),
            ("subscription", .string(item.subscription.rawValue)),
            ("ask", .bool(item.ask)),
        ]
        if let presence {
            members.append(("approved", .bool(item.approved)))
            members.append(("presence", .string(presence.state)))
            members.append(("status", .optional(presence.status)))
            members.append(("resources", .array(presence.resources.map { r in
                .object([("resource", .string(r.resource)), ("show", .string(r.show)),
                         ("status", .optional(r.status)), ("priority", .int(r.priority))])
            })))
        }
        return .object(members)
    }

    /// The subscription column: `both`, `none+ask`…
    static func subscriptionText(_ item: RosterItem) -> String {
        item.subscription.rawValue + (item.ask ? "+ask" : "")
    }

    /// Prints rows (in one write): aligned columns under a header on a terminal, tab-separated
    /// otherwise. Cells hold names, groups and status texts others chose: their controls are
    /// escaped, so a row stays one line and cannot drive the terminal.
    static func table(header: [String], rows: [[String]]) {
        let rows = rows.map { $0.map(cell) }
        var text = ""
        guard Output.stdoutIsTTY else {
            for row in rows {
                text += row.joined(separator: "\t")
                text += "\n"
            }
            Output.out(text)
            return
        }
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func render(_ row: [String]) -> String {
            var line = ""
            for (i, cell) in row.enumerated() {
                line += i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count + 2)
            }
            while line.last == " " { line.removeLast() }
            return line
        }
        text += render(header) + "\n"
        for row in rows { text += render(row) + "\n" }
        Output.out(text)
    }

    /// A cell as printed: tabs, newlines and other controls escaped (`TerminalText`), so
    /// tab-separated rows stay one per line.
    static func cell(_ text: String) -> String { TerminalText.escaped(text) }
}
