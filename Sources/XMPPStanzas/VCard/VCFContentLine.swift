import TextFormats

/// One unfolded content line of a .vcf file (RFC 2425 §5.8.1, RFC 6350 §3.3):
/// `[group.]NAME *(;PARAM[=VALUE[,VALUE]]) : VALUE`.
struct VCFContentLine: Equatable {
    /// The physical line it starts on (1-based).
    var line: Int
    /// The property name, uppercased, without its group.
    var name: String
    /// Parameters in order: uppercased name and its values (quotes removed). A bare parameter
    /// such as `WORK` (vCard 2.1 style, still common in 3.0 files) becomes `TYPE=WORK`.
    var parameters: [(name: String, values: [String])]
    /// The raw value, still escaped.
    var value: String

    static func == (a: VCFContentLine, b: VCFContentLine) -> Bool {
        a.line == b.line && a.name == b.name && a.value == b.value
            && a.parameters.map(\.name) == b.parameters.map(\.name) && a.parameters.map(\.values) == b.parameters.map(\.values)
    }

    /// Every value of parameter `name` (uppercase), comma lists split.
    func values(of name: String) -> [String] {
        parameters.filter { $0.name == name }.flatMap(\.values)
    }

    /// Splits UTF-8 `bytes` into unfolded content lines, checking UTF-8 line by line.
    static func lines(in bytes: [UInt8]) throws(VCFError) -> [VCFContentLine] {
        // `softBreaks`: whether the logical line is quoted-printable, decided once from its
        // parameters; asking again at every physical line re-parsed the whole value, O(N²).
        var logical: [(line: Int, text: String, quotedPrintable: Bool?)] = []
        var number = 0
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }  // UTF-8 byte order mark
        while start <= bytes.count {
            number += 1
            // Lines end in CRLF (RFC 6350), LF (most tools) or a lone CR (old Mac files).
            let end = bytes[start...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
            let next = end < bytes.count && bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A ? end + 2 : end + 1
            if let control = bytes[start..<end].first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                // No vCard value holds a raw control character, and XML could not carry one to the server.
                throw .malformed(line: number, reason: "a control character (\(Unicode.Scalar(control).codePointLabel)), which vCard text cannot hold")
            }
            guard let text = String(validating: bytes[start..<end], as: UTF8.self) else {
                throw .malformed(line: number, reason: "not valid UTF-8 (vCard files must be UTF-8)")
            }
            if !logical.isEmpty, softBreakEnds(&logical[logical.count - 1]) {
                // vCard 2.1 quoted-printable: a value ending in '=' goes on at the next line, as it is.
                logical[logical.count - 1].text.removeLast()
                logical[logical.count - 1].text += text
            } else if let first = text.unicodeScalars.first, first == " " || first == "\t" {
                guard !logical.isEmpty else { throw .malformed(line: number, reason: "a continuation line with no line before it") }
                // Drop one scalar, not one Character: " \u{301}" is a single grapheme, and its mark is content.
                logical[logical.count - 1].text += String(text.unicodeScalars.dropFirst())
            } else if !text.isEmpty {
                logical.append((number, text, nil))
            }
            start = next
        }
        var result: [VCFContentLine] = []
        result.reserveCapacity(logical.count)
        for (line, text, _) in logical { result.append(try parse(text, line: line)) }
        return result
    }

    /// `isSoftBreak` of a logical line, its quoted-printable part remembered once its
    /// parameters are complete (the first ':' is in), so each physical line costs O(1).
    private static func softBreakEnds(_ entry: inout (line: Int, text: String, quotedPrintable: Bool?)) -> Bool {
        guard entry.text.hasSuffix("=") else { return false }
        if let known = entry.quotedPrintable { return known }
        let answer = isSoftBreak(entry.text)
        if entry.text.unicodeScalars.contains(":") { entry.quotedPrintable = answer }
        return answer
    }

    /// A quoted-printable line (vCard 2.1) whose value ends in a soft line break (`=`).
    /// Only a parameter that is QUOTED-PRINTABLE counts (`ENCODING=` or a bare 2.1 word), not one
    /// that merely contains it: a Base64 PHOTO typed `quoted-printablemage/png` ends in `=` too.
    static func isSoftBreak(_ text: String) -> Bool {
        guard text.hasSuffix("="), text.uppercased().contains("QUOTED-PRINTABLE"),
              let line = try? parse(text, line: 0) else { return false }
        return (line.values(of: "ENCODING") + line.values(of: "TYPE")).contains { $0.uppercased() == "QUOTED-PRINTABLE" }
    }

    /// Parses one unfolded line.
    static func parse(_ text: String, line: Int) throws(VCFError) -> VCFContentLine {
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count, scalars[i] != ";", scalars[i] != ":" { i += 1 }
        guard i < scalars.count else {
            throw .malformed(line: line, reason: "expected NAME:VALUE, found '\(excerpt(text))'")
        }
        var name = String(String.UnicodeScalarView(scalars[0..<i]))
        if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }  // drop the group
        // A vendor's property with a name RFC 6350 does not allow (OPPO_RECENT_CALL) is no reason to
        // refuse the file: it comes back nameless, for the reader to drop with a warning.
        guard isName(name) else { return VCFContentLine(line: line, name: "", parameters: [], value: excerpt(text)) }
        var parameters: [(name: String, values: [String])] = []
        while i < scalars.count, scalars[i] == ";" {
            i += 1
            let (parameter, next) = try parseParameter(scalars, from: i, line: line)
            parameters.append(parameter)
            i = next
        }
        guard i < scalars.count, scalars[i] == ":" else {
            throw .malformed(line: line, reason: "expected ':' after the parameters of \(name.uppercased())")
        }
        let value = String(String.UnicodeScalarView(scalars[(i + 1)...]))
        return VCFContentLine(line: line, name: name.uppercased(), parameters: parameters, value: value)
    }

    /// One `NAME=VALUE[,VALUE]` (values optionally quoted) or a bare `VALUE`; returns the index after it.
    private static func parseParameter(_ s: [Unicode.Scalar], from start: Int, line: Int) throws(VCFError)
        -> ((name: String, values: [String]), Int)
    {
        var i = start
        while i < s.count, s[i] != "=", s[i] != ";", s[i] != ":" { i += 1 }
        let name = String(String.UnicodeScalarView(s[start..<i]))
        guard isName(name) else { throw .malformed(line: line, reason: "invalid parameter name '\(excerpt(name))'") }
        guard i < s.count, s[i] == "=" else { return ((name: "TYPE", values: [name]), i) }
        i += 1
        var values: [String] = []
        var current = String.UnicodeScalarView()
        while i < s.count, s[i] != ";", s[i] != ":" {
            if s[i] == "\"" {
                i += 1
                while i < s.count, s[i] != "\"" {
                    // RFC 6868: ^n newline, ^^ caret, ^' double quote.
                    if s[i] == "^", i + 1 < s.count, ["n", "N", "^", "'"].contains(s[i + 1]) {
                        current.append(s[i + 1] == "^" ? "^" : s[i + 1] == "'" ? "\"" : "\n")
                        i += 2
                        continue
                    }
                    current.append(s[i])
                    i += 1
                }
                guard i < s.count else { throw .malformed(line: line, reason: "unterminated quoted parameter value") }
                i += 1
            } else if s[i] == "," {
                values.append(String(current))
                current = String.UnicodeScalarView()
                i += 1
            } else {
                current.append(s[i])
                i += 1
            }
        }
        values.append(String(current))
        return ((name: name.uppercased(), values: values), i)
    }

    /// Letters, digits and '-', not empty (RFC 6350 §3.3 iana-token / x-name).
    static func isName(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
    }

    static func excerpt(_ s: String) -> String {
        s.count > 40 ? String(s.prefix(40)) + "…" : s
    }
}
