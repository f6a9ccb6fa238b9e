import TextFormats
import XMPPServices
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
            members.append(("presence", .string(presence.state.rawValue)))
            members.append(("status", .optional(presence.status)))
            members.append(("resources", resources(presence)))
        }
        return .object(members)
    }

    private static func resources(_ presence: ContactPresence) -> JSONValue {
        .array(presence.resources.map { r in
            .object([("resource", .string(r.resource)), ("show", .string(r.state.rawValue)),
                     ("status", .optional(r.status)), ("priority", .int(r.priority))])
        })
    }

    /// The bytes of `JSONValue.array(rows.map { json($0, presence: $1) }).prettyUTF8`, one row's
    /// object at a time (`JSONValue.appendPretty`), so the whole list's tree is never held.
    /// With `flushAt`, each time the bytes reach that size they go to `flush` and the buffer is
    /// reused, so a long list does not fault in a fresh half-megabyte buffer; the rest is returned.
    static func prettyJSON(_ rows: [(RosterItem, ContactPresence)], flushAt: Int = .max,
                           flush: ([UInt8]) -> Void = { _ in }) -> [UInt8] {
        guard !rows.isEmpty else { return Array("[]".utf8) }
        var s: [UInt8] = []
        s.reserveCapacity(min(rows.count * 256, flushAt) + 1024)
        var first = true
        for (item, presence) in rows {
            s += (first ? "[\n  " : ",\n  ").utf8
            first = false
            json(item, presence: presence).appendPretty(to: &s, level: 1)
            if s.count >= flushAt {
                flush(s)
                s.removeAll(keepingCapacity: true)
            }
        }
        s += "\n]".utf8
        return s
    }

    /// The subscription column: `both`, `none+ask`…
    static func subscriptionText(_ item: RosterItem) -> String {
        item.subscription.rawValue + (item.ask ? "+ask" : "")
    }

    /// Prints rows (in one write): aligned columns under a header on a terminal, tab-separated
    /// otherwise. Cells hold names, groups and status texts others chose: their controls are
    /// escaped, so a row stays one line and cannot drive the terminal.
    static func table(header: [String], rows: [[String]]) {
        guard Output.stdoutIsTTY else {
            Output.out(tabSeparated(rows))
            return
        }
        let rows = rows.map { $0.map(cell) }
        var text = ""
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

    /// Rows as `table` prints them when standard output is not a terminal.
    static func tabSeparated(_ rows: [[String]]) -> String {
        var text = ""
        for row in rows {
            text += row.map(cell).joined(separator: "\t")
            text += "\n"
        }
        return text
    }

    /// The cells of a `list` row: JID, name, groups, subscription, presence, status.
    static func listCells(_ item: RosterItem, _ presence: ContactPresence) -> [String] {
        [item.jid.description, item.name ?? "", item.groups.joined(separator: ","),
         subscriptionText(item), presence.state.rawValue, presence.status ?? ""]
    }

    /// `tabSeparated(rows.map(listCells))` as bytes, written cell by cell without the arrays
    /// of Strings, a large part of a long cached list's work.
    /// Escaping maps each scalar on its own, so escaping the groups one by one and joining them
    /// with `,` gives what escaping the joined text gives. RosterOutputTests checks both agree.
    /// `flushAt` and `flush` as for `prettyJSON`.
    static func tabSeparatedList(_ rows: [(RosterItem, ContactPresence)], flushAt: Int = .max,
                                 flush: ([UInt8]) -> Void = { _ in }) -> [UInt8] {
        var s: [UInt8] = []
        s.reserveCapacity(min(rows.count * 64, flushAt) + 1024)
        for (item, presence) in rows {
            TerminalText.appendEscaped(item.jid.description, to: &s)
            s.append(0x09)
            if let name = item.name { TerminalText.appendEscaped(name, to: &s) }
            s.append(0x09)
            for (i, group) in item.groups.enumerated() {
                if i > 0 { s.append(UInt8(ascii: ",")) }
                TerminalText.appendEscaped(group, to: &s)
            }
            s.append(0x09)
            s.append(contentsOf: item.subscription.rawValue.utf8)
            if item.ask { s.append(contentsOf: "+ask".utf8) }
            s.append(0x09)
            TerminalText.appendEscaped(presence.state.rawValue, to: &s)
            s.append(0x09)
            if let status = presence.status { TerminalText.appendEscaped(status, to: &s) }
            s.append(0x0A)
            if s.count >= flushAt {
                flush(s)
                s.removeAll(keepingCapacity: true)
            }
        }
        return s
    }

    /// A cell as printed: tabs, newlines and other controls escaped (`TerminalText`), so
    /// tab-separated rows stay one per line.
    static func cell(_ text: String) -> String { TerminalText.escaped(text) }
}
