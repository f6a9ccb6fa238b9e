/// A manual page as data (NAME, then titled sections of paragraphs, lists, tables and literal
/// displays), rendered to mdoc(7) source that `mandoc -T lint -W warning` accepts silently.
///
/// Used as is for overview pages such as `xmpp-tools(7)`, and by `ManPageRenderer` for tools.
public struct ManualPage: Sendable, Equatable {
    /// Page name: `xmpp-tools`.
    public var name: String
    /// Manual section: `1` or `7`.
    public var section: String
    /// One line for the NAME section, lower case, no final full stop.
    public var summary: String
    /// The sections after NAME, in order; use the conventional titles and order of mdoc(7).
    public var sections: [Section]

    /// Declares a page.
    public init(name: String, section: String, summary: String, sections: [Section]) {
        self.name = name
        self.section = section
        self.summary = summary
        self.sections = sections
    }

    /// One `.Sh` section.
    public struct Section: Sendable, Equatable {
        /// Upper-case title: `DESCRIPTION`.
        public var title: String
        /// Its content, in order.
        public var blocks: [Block]

        /// Declares a section.
        public init(_ title: String, _ blocks: [Block]) {
            self.title = title
            self.blocks = blocks
        }
    }

    /// A piece of section content.
    public enum Block: Sendable, Equatable {
        /// A paragraph of plain text.
        case paragraph(String)
        /// A tagged list: each term, styled, followed by its text.
        case definitions([Definition], style: TermStyle)
        /// A table with a bold header row.
        case table(header: [String], rows: [[String]])
        /// Lines shown verbatim, indented: commands, pipelines, file contents.
        case literal([String])
        /// Cross references, `name(section)` each, as in SEE ALSO.
        case references([String])
        /// mdoc(7) source lines inserted as they are (already escaped).
        case markup([String])
    }

    /// How the terms of a definition list are set.
    public enum TermStyle: Sendable, Equatable {
        /// Plain text: exit statuses.
        case plain
        /// A command or subcommand name (`Cm`).
        case command
        /// An environment variable (`Ev`).
        case environment
        /// A file path (`Pa`).
        case path
    }

    /// The mdoc(7) source, dated `date` (`2024-05-01`), ending in a newline.
    public func render(date: String) -> String {
        var lines = [
            ".\\\" Generated from the xmpp-tools argument specs; do not edit.",
            ".Dd " + Self.mdocDate(date), ".Dt " + name.uppercased() + " " + section, ".Os",
            ".Sh NAME", ".Nm " + Roff.argument(name), ".Nd " + Roff.arguments(summary),
        ]
        for section in sections where !section.blocks.isEmpty {
            lines.append(".Sh " + Roff.arguments(section.title.uppercased()))
            lines += Self.render(section.blocks)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `2024-05-01` as `May 1, 2024`, the form both mandoc and groff read; other text as is.
    static func mdocDate(_ date: String) -> String {
        let parts = date.split(separator: "-")
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September",
            "October", "November", "December",
        ]
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2]), (1...12).contains(month), (1...31).contains(day)
        else { return date }
        return months[month - 1] + " " + String(day) + ", " + String(year)
    }

    /// Blocks in order, with `.Pp` before every paragraph that follows another block
    /// (lists and displays bring their own spacing).
    static func render(_ blocks: [Block]) -> [String] {
        var lines: [String] = []
        for (index, block) in blocks.enumerated() {
            switch block {
            case .paragraph(let text):
                if index > 0 { lines.append(".Pp") }
                lines.append(Roff.text(text))
            case .definitions(let items, let style):
                lines.append(".Bl -tag -width Ds")
                for item in items {
                    lines.append(".It " + term(item.term, style))
                    lines.append(Roff.text(item.text))
                }
                lines.append(".El")
            case .table(let header, let rows):
                lines += table(header, rows)
            case .literal(let text):
                lines += [".Bd -literal -offset indent"] + text.map(Roff.literal) + [".Ed"]
            case .references(let pages):
                lines += references(pages)
            case .markup(let source):
                lines += source
            }
        }
        return lines
    }

    private static func term(_ text: String, _ style: TermStyle) -> String {
        switch style {
        case .plain: return Roff.arguments(text)
        case .command: return "Cm " + Roff.arguments(text)
        case .environment: return "Ev " + Roff.argument(text)
        case .path: return "Pa " + Roff.argument(text)
        }
    }

    private static func table(_ header: [String], _ rows: [[String]]) -> [String] {
        let columns = ([header] + rows).map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            ([header] + rows).compactMap { column < $0.count ? $0[column] : nil }.max { $0.count < $1.count } ?? ""
        }
        var lines = [".Bl -column " + widths.map(Roff.argument).joined(separator: " ")]
        lines.append(".It " + header.map { "Sy " + Roff.argument($0) }.joined(separator: " Ta "))
        for row in rows {
            lines.append(".It " + row.map(Roff.argument).joined(separator: " Ta "))
        }
        return lines + [".El"]
    }

    /// `name(section)` as `.Xr name section ,` lines, comma-separated, sorted by section and
    /// name as mdoc(7) expects.
    private static func references(_ pages: [String]) -> [String] {
        let parsed = pages.map { page -> (name: String, section: String) in
            let name = page.prefix { $0 != "(" }
            let section = page.dropFirst(name.count).filter { $0 != "(" && $0 != ")" }
            return (String(name), section.isEmpty ? "1" : String(section))
        }.sorted { ($0.section, $0.name) < ($1.section, $1.name) }
        return parsed.enumerated().map { index, page in
            ".Xr " + Roff.argument(page.name) + " " + Roff.argument(page.section)
                + (index < parsed.count - 1 ? " ," : "")
        }
    }
}
