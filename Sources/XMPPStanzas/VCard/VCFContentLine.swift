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
    /// Control characters taken out of the line (raw ones, or decoded from quoted-printable):
    /// neither XML nor a terminal may get them, and the reader says they were dropped.
    var controls: [Unicode.Scalar] = []
    /// Why the line's parameters cannot be read (an unterminated quote…): it is left out whole.
    var problem: String?

    static func == (a: VCFContentLine, b: VCFContentLine) -> Bool {
        a.line == b.line && a.name == b.name && a.value == b.value && a.controls == b.controls && a.problem == b.problem
            && a.parameters.map(\.name) == b.parameters.map(\.name) && a.parameters.map(\.values) == b.parameters.map(\.values)
    }

    /// `a control character (U+000C)`, `2 control characters (U+000C, U+0007)`: what `controls` names.
    var controlsLabel: String {
        let labels = controls.prefix(4).map(\.codePointLabel).joined(separator: ", ") + (controls.count > 4 ? ", …" : "")
        return (controls.count == 1 ? "a control character" : "\(controls.count) control characters") + " (\(labels))"
    }

    /// Every value of parameter `name` (uppercase), comma lists split.
    func values(of name: String) -> [String] {
        parameters.filter { $0.name == name }.flatMap(\.values)
    }

    /// A logical line being unfolded: its bytes (UTF-8 is checked once it is whole, since RFC
    /// 6350 §3.2 lets a fold fall inside a multi-octet character), the physical line it starts on,
    /// and whether it is quoted-printable, decided once from its parameters: asking again at
    /// every physical line re-parsed the whole value, O(N²).
    private struct Logical {
        var line: Int
        var bytes: [UInt8]
        var quotedPrintable: Bool?
        var controls: [Unicode.Scalar] = []
    }

    /// Splits UTF-8 `bytes` into unfolded content lines. Lines are unfolded as bytes and then
    /// checked as UTF-8 (RFC 6350 §3.2: "implementations SHOULD unfold lines in such a way as to
    /// properly restore the original sequence" when a fold splits a character).
    static func lines(in bytes: [UInt8]) throws(VCFError) -> [VCFContentLine] {
        var logical: [Logical] = []
        var number = 0
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }  // UTF-8 byte order mark
        while start <= bytes.count {
            number += 1
            // Lines end in CRLF (RFC 6350), LF (most tools) or a lone CR (old Mac files).
            let end = bytes[start...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
            let next = end < bytes.count && bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A ? end + 2 : end + 1
            var physical = bytes[start..<end]
            // No vCard value holds a raw control character, and XML could not carry one to the server:
            // they are taken out here, and the reader names them (or refuses a BEGIN, END or VERSION holding one).
            var controls: [Unicode.Scalar] = []
            if physical.contains(where: isControl) {
                controls = physical.filter(isControl).map { Unicode.Scalar($0) }
                physical = ArraySlice(physical.filter { !isControl($0) })
            }
            if !logical.isEmpty, softBreakEnds(&logical[logical.count - 1]) {
                // vCard 2.1 quoted-printable: a value ending in '=' goes on at the next line, as it is.
                logical[logical.count - 1].bytes.removeLast()
                logical[logical.count - 1].bytes += physical
                logical[logical.count - 1].controls += controls
            } else if let first = physical.first, first == 0x20 || first == 0x09 {
                guard !logical.isEmpty else { throw .malformed(line: number, reason: "a continuation line with no line before it") }
                // One octet of white space is the fold; what follows is content, even a combining
                // mark or the rest of a character the fold split.
                logical[logical.count - 1].bytes += physical.dropFirst()
                logical[logical.count - 1].controls += controls
            } else if !physical.isEmpty {
                logical.append(Logical(line: number, bytes: Array(physical), quotedPrintable: nil, controls: controls))
            } else if !controls.isEmpty {
                // A line of nothing but controls (a form feed between cards): no property, but named where a card is read.
                logical.append(Logical(line: number, bytes: [], quotedPrintable: nil, controls: controls))
            }
            start = next
        }
        var result: [VCFContentLine] = []
        result.reserveCapacity(logical.count)
        for entry in logical {
            guard var text = String(validating: entry.bytes, as: UTF8.self) else {
                throw .malformed(line: entry.line, reason: "not valid UTF-8 (vCard files must be UTF-8)")
            }
            var controls = entry.controls
            // The C1 controls (U+0080–U+009F) are taken out as the C0 ones are: XML 1.0 discourages
            // them and a terminal may take U+009B for the start of an escape sequence.
            if text.unicodeScalars.contains(where: isC1) {
                controls += text.unicodeScalars.filter(isC1)
                text = String(String.UnicodeScalarView(text.unicodeScalars.filter { !isC1($0) }))
            }
            var line = text.isEmpty ? VCFContentLine(line: entry.line, name: "", parameters: [], value: "") : try parse(text, line: entry.line)
            line.controls = controls
            result.append(line)
        }
        return result
    }

    /// C0 but tab, and DEL: the bytes no vCard text holds.
    private static func isControl(_ b: UInt8) -> Bool { (b < 0x20 && b != 0x09) || b == 0x7F }

    private static func isC1(_ s: Unicode.Scalar) -> Bool { (0x80...0x9F).contains(s.value) }

    /// `isSoftBreak` of a logical line, its quoted-printable part remembered once its
    /// parameters are complete (the first ':' is in), so each physical line costs O(1).
    private static func softBreakEnds(_ entry: inout Logical) -> Bool {
        guard entry.bytes.last == UInt8(ascii: "=") else { return false }
        if let known = entry.quotedPrintable { return known }
        let text = String(decoding: entry.bytes, as: UTF8.self)
        let answer = isSoftBreak(text)
        if entry.bytes.contains(UInt8(ascii: ":")) { entry.quotedPrintable = answer }
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
        let nameEnd = i
        // Parameters that cannot be read make the property unusable, not the file: it comes back
        // with its `problem`, for the reader to leave out with a warning.
        func unusable(_ reason: String) -> VCFContentLine {
            let rest = String(String.UnicodeScalarView(scalars[nameEnd...]))
            return VCFContentLine(line: line, name: name.uppercased(), parameters: [], value: excerpt(rest), problem: reason)
        }
        while i < scalars.count, scalars[i] == ";" {
            i += 1
            switch parseParameter(scalars, from: i) {
            case .success(let (parameter, next)):
                parameters.append(parameter)
                i = next
            case .failure(let reason): return unusable(reason.text)
            }
        }
        guard i < scalars.count, scalars[i] == ":" else {
            return unusable("expected ':' after the parameters of \(name.uppercased())")
        }
        let value = String(String.UnicodeScalarView(scalars[(i + 1)...]))
        return VCFContentLine(line: line, name: name.uppercased(), parameters: parameters, value: value)
    }

    /// Why a parameter cannot be read.
    struct ParameterProblem: Error { let text: String }

    /// One `NAME=VALUE[,VALUE]` (values optionally quoted) or a bare `VALUE`; returns the index after it.
    private static func parseParameter(_ s: [Unicode.Scalar], from start: Int)
        -> Result<((name: String, values: [String]), Int), ParameterProblem>
    {
        var i = start
        while i < s.count, s[i] != "=", s[i] != ";", s[i] != ":" { i += 1 }
        let name = String(String.UnicodeScalarView(s[start..<i]))
        guard isName(name) else { return .failure(ParameterProblem(text: "invalid parameter name '\(excerpt(name))'")) }
        guard i < s.count, s[i] == "=" else { return .success(((name: "TYPE", values: [name]), i)) }
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
                guard i < s.count else { return .failure(ParameterProblem(text: "an unterminated quoted parameter value")) }
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
        return .success(((name: name.uppercased(), values: values), i))
    }

    /// Letters, digits and '-', not empty (RFC 6350 §3.3 iana-token / x-name).
    static func isName(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
    }

    static func excerpt(_ s: String) -> String {
        s.count > 40 ? String(s.prefix(40)) + "…" : s
    }
}
