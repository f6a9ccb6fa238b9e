/// Escaping of text for mdoc(7) source, so that `mandoc -T lint` finds nothing to warn about.
enum Roff {
    /// Text lines: whitespace collapsed, backslashes as `\e`, leading hyphens of words as `\-`,
    /// non-ASCII characters as `\[uXXXX]`, and `\&` before a leading `.` or `'`. Each sentence
    /// starts a new line, as mdoc(7) asks; an abbreviation such as `e.g.` gets `\&` so that it
    /// is not read as a sentence end.
    static func text(_ text: String) -> String {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
        var lines: [String] = []
        var line: [String] = []
        for (index, word) in words.enumerated() {
            let escaped = escapeWord(word, onMacroLine: false)
            guard index < words.count - 1, endsSentence(word) else {
                line.append(escaped)
                continue
            }
            if abbreviations.contains(String(word.drop { "([\"'".contains($0) }).lowercased()) {
                line.append(escaped + "\\&")
            } else {
                lines.append((line + [escaped]).joined(separator: " "))
                line = []
            }
        }
        if !line.isEmpty { lines.append(line.joined(separator: " ")) }
        return lines.map(guardLine).joined(separator: "\n")
    }

    /// Words ending in a full stop that do not end a sentence.
    private static let abbreviations: Set<String> = ["e.g.", "i.e.", "etc.", "vs.", "cf.", "approx."]

    /// Whether `word` ends in `.`, `!` or `?`, possibly followed by closing `)`, `]`, `"` or `'`.
    private static func endsSentence(_ word: String) -> Bool {
        let body = word.reversed().drop { ")]\"'".contains($0) }
        guard let last = body.first, ".!?".contains(last) else { return false }
        return body.count > 1
    }

    /// A line of a literal display: spacing kept, every hyphen as `\-` so that it stays a
    /// hyphen-minus when copied from the rendered page.
    static func literal(_ line: String) -> String {
        guardLine(escapeCharacters(line, hyphens: true))
    }

    /// One macro argument: quoted if it holds spaces, and kept from being read as a macro name
    /// or a delimiter.
    static func argument(_ word: String) -> String {
        if word.isEmpty { return "\"\"" }
        if word.contains(where: { $0 == " " || $0 == "\t" }) {
            let words = word.split(whereSeparator: { $0 == " " || $0 == "\t" }).map {
                escapeWord(String($0), onMacroLine: true)
            }
            return "\"" + words.joined(separator: " ").replacing("\"", with: "\\(dq") + "\""
        }
        return escapeWord(word, onMacroLine: true).replacing("\"", with: "\\(dq")
    }

    /// The words of `text` as separate macro arguments (for `.Nd`, `.Ss`, `.It`, which are parsed).
    static func arguments(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
            .map { argument(String($0)) }.joined(separator: " ")
    }

    /// `--account` as an `Fl` argument: `\-account`.
    static func flag(_ name: String) -> String {
        String(name.dropFirst()).replacing("-", with: "\\-")
    }

    private static func escapeWord(_ word: String, onMacroLine: Bool) -> String {
        let hyphens = word.prefix { $0 == "-" }.count
        var escaped =
            String(repeating: "\\-", count: hyphens) + escapeCharacters(String(word.dropFirst(hyphens)), hyphens: false)
        if onMacroLine && looksLikeMacro(word) { escaped = "\\&" + escaped }
        return escaped
    }

    /// `Ar`, `No`, `Ta` and the like, `%A`, and lone delimiters would be read as markup on a
    /// macro line.
    private static func looksLikeMacro(_ word: String) -> Bool {
        if word.count == 1, let only = word.first, ".,:;()[]?!|".contains(only) { return true }
        guard let first = word.first, (2...3).contains(word.count) else { return false }
        return first == "%" || (first.isUppercase && word.dropFirst().allSatisfy(\.isLowercase))
    }

    private static func escapeCharacters(_ text: String, hyphens: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-" where hyphens: out += "\\-"
            case "\t": out += " "
            case _ where scalar.value > 126 || scalar.value < 32:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `\&` before a line that would otherwise start with a control character.
    private static func guardLine(_ line: String) -> String {
        // The first byte, not Character: a mark after '.' is one Character, still a request to roff.
        line.utf8.first == UInt8(ascii: ".") || line.utf8.first == UInt8(ascii: "'") ? "\\&" + line : line
    }
}
