/// Escaping of text for mdoc(7) source, so that `mandoc -T lint` finds nothing to warn about.
enum Roff {
    /// A text line: whitespace collapsed, backslashes as `\e`, leading hyphens of words as `\-`,
    /// non-ASCII characters as `\[uXXXX]`, and `\&` before a leading `.` or `'`.
    static func text(_ text: String) -> String {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        return guardLine(words.map { escapeWord(String($0), onMacroLine: false) }.joined(separator: " "))
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
        line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }
}
