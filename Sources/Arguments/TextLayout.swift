import TextFormats

/// Plain-text layout for help: word wrapping and two-column tables.
enum TextLayout {
    /// Joins words that must stay on one line (`[env: XMPP_ACCOUNT]`); printed as a space.
    static let glue: Character = "\u{00A0}"

    /// `text` wrapped at `width` columns, each line starting with `indent` spaces; a word longer
    /// than a line stands alone on its own.
    static func wrap(_ text: String, width: Int, indent: Int = 0) -> [String] {
        let margin = String(repeating: " ", count: indent)
        let room = max(width - indent, 1)
        var lines: [String] = []
        var line = ""
        var length = 0  // line.count, kept as it grows: counting characters walks the string
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            let wordLength = word.count
            if line.isEmpty {
                line = String(word)
                length = wordLength
            } else if length + 1 + wordLength <= room {
                line += " " + word
                length += 1 + wordLength
            } else {
                lines.append(margin + line)
                line = String(word)
                length = wordLength
            }
        }
        if !line.isEmpty { lines.append(margin + line) }
        return lines.map { String($0.map { $0 == glue ? " " : $0 }) }
    }

    /// Rows of `label  text`, labels padded to `labelWidth` after `indent` spaces and texts
    /// wrapped at `width`; a label wider than `labelWidth` puts its text on the next line.
    static func table(
        _ rows: [(label: String, text: String)], labelWidth: Int, indent: Int = 2, width: Int
    ) -> [String] {
        let column = indent + labelWidth + 2
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        for row in rows {
            var text = wrap(row.text, width: width, indent: column)
            let label = margin + row.label
            if row.label.count <= labelWidth, let first = text.first {
                text[0] = label + String(repeating: " ", count: column - label.count) + first.dropFirst(column)
            } else {
                text.insert(label, at: 0)
            }
            lines += text
        }
        return lines
    }

    /// `text` with a capital first letter and a final full stop, as help prints summaries.
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        let ending = text.last.map { ".!?:".contains($0) } ?? true ? "" : "."
        // The rest as a String first: Swift 6.0 finds no `+` for String, Substring and String.
        let rest = String(text.dropFirst())
        return first.uppercased() + rest + ending
    }

    /// The first sentence of `text`, what `--help` shows of an option's explanation: up to the
    /// first `. ` or `: ` outside parentheses (what follows a colon explains the detail), ending
    /// in a full stop.
    static func firstSentence(_ text: String) -> String {
        var depth = 0
        var previous: Character?
        var end = text.endIndex
        for index in text.indices {
            let character = text[index]
            switch character {
            case "(", "[": depth += 1
            case ")", "]": depth = max(0, depth - 1)
            case " " where depth == 0 && [".", ":"].contains(previous) && !abbreviation(text[..<index]):
                end = text.index(before: index)
            default: break
            }
            if end != text.endIndex { break }
            previous = character
        }
        let sentence = text[..<end].trimming { $0 == " " || $0 == ":" }
        guard let last = sentence.last else { return "" }
        return ".!?".contains(last) ? sentence : sentence + "."
    }

    /// Whether `text` ends in an abbreviation whose full stop ends no sentence.
    private static func abbreviation(_ text: Substring) -> Bool {
        ["e.g.", "i.e.", "etc.", "vs."].contains { text.hasSuffix($0) }
    }

    /// The width to give labels: the widest one, but at most `limit`.
    static func labelWidth(_ labels: [String], limit: Int) -> Int {
        min(labels.map(\.count).max() ?? 0, limit)
    }
}
