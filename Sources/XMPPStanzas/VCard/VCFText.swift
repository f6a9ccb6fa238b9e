/// vCard text values: escaping (RFC 2426 §4, RFC 6350 §3.4), structured values and line folding
/// (RFC 2425 §5.8.1: at most 75 octets a line, never inside a UTF-8 sequence).
enum VCFText {
    /// Escapes a text value: backslash, comma, semicolon and line breaks.
    static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previousCR = false
        for s in text.unicodeScalars {
            defer { previousCR = s == "\r" }
            switch s {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case ",": out.append(contentsOf: "\\,".unicodeScalars)
            case ";": out.append(contentsOf: "\\;".unicodeScalars)
            case "\r": out.append(contentsOf: "\\n".unicodeScalars)
            case "\n": if !previousCR { out.append(contentsOf: "\\n".unicodeScalars) }
            default: out.append(s)
            }
        }
        return String(out)
    }

    /// A URI value, which is not escaped (RFC 6350 §3.4) and so cannot carry a raw control: the
    /// C0 controls but tab (a CR or LF would end the line and start a forged property) and DEL
    /// are percent-encoded, as RFC 3986 writes them. `VCFReader` refuses exactly those, so a card
    /// read from a file is written back unchanged.
    static func uri(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isURIControl($0) || $0 == "\\" }) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if isURIControl(s) {
                let hex = String(s.value, radix: 16, uppercase: true)
                out.append(contentsOf: ("%" + (hex.count < 2 ? "0" : "") + hex).unicodeScalars)
            } else if s == "\\" {
                // Readers take `\,` `\;` `\:` for the character (3.0 writers escape them); a
                // backslash of the URI's own is doubled so it cannot form one of those.
                out.append(contentsOf: "\\\\".unicodeScalars)
            } else {
                out.append(s)
            }
        }
        return String(out)
    }

    private static func isURIControl(_ s: Unicode.Scalar) -> Bool { (s.value < 0x20 && s != "\t") || s.value == 0x7F }

    /// Undoes `escape`: `\n`/`\N` newline, `\\`, `\,`, `\;`, `\:`; an unknown escape keeps its character.
    static func unescape<S: StringProtocol>(_ text: S) -> String {
        var out = String.UnicodeScalarView()
        var escaped = false
        for s in text.unicodeScalars {
            if escaped {
                out.append(s == "n" || s == "N" ? "\n" : s)
                escaped = false
            } else if s == "\\" {
                escaped = true
            } else {
                out.append(s)
            }
        }
        if escaped { out.append("\\") }
        return String(out)
    }

    /// Splits a structured value on unescaped `separator`, leaving each part escaped.
    static func split(_ text: String, on separator: Unicode.Scalar) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var escaped = false
        var i = text.unicodeScalars.startIndex
        while i < text.unicodeScalars.endIndex {
            let s = text.unicodeScalars[i]
            if escaped {
                escaped = false
            } else if s == "\\" {
                escaped = true
            } else if s == separator {
                parts.append(text[start..<i])
                start = text.unicodeScalars.index(after: i)
            }
            i = text.unicodeScalars.index(after: i)
        }
        parts.append(text[start...])
        return parts
    }

    /// The unescaped parts of a structured value (N, ADR, ORG); empty parts become nil.
    static func components(_ text: String, count: Int? = nil) -> [String?] {
        var parts = split(text, on: ";").map { part -> String? in
            let value = unescape(part)
            return VCard.isBlank(value) ? nil : value
        }
        if let count, parts.count < count { parts += Array(repeating: nil, count: count - parts.count) }
        return parts
    }

    /// Folds one content line into physical lines of at most 75 octets, each ending in CRLF;
    /// continuation lines start with one space.
    static func fold(_ line: String, into out: inout String) {
        var width = 0
        for s in line.unicodeScalars {
            let size = UTF8.width(s)
            if width + size > 75 {
                out += "\r\n "
                width = 1
            }
            out.unicodeScalars.append(s)
            width += size
        }
        out += "\r\n"
    }
}
