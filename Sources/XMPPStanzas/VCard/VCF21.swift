import TextFormats

/// What vCard 2.1 writes differently, undone before a property is read as 3.0: a
/// quoted-printable value (RFC 2045 §6.7) in the CHARSET it names. Soft line breaks are joined
/// already (`VCFContentLine.lines`); a decoded line break becomes the `\n` escape 3.0 writes.
enum VCF21 {
    /// `line` with a quoted-printable value decoded; any other line as it is.
    static func decoded(_ line: VCFContentLine) throws(VCFError) -> VCFContentLine {
        let encodings = line.values(of: "ENCODING").map { $0.uppercased() } + line.values(of: "TYPE").map { $0.uppercased() }
        guard encodings.contains("QUOTED-PRINTABLE") else { return line }
        guard let bytes = quotedPrintable(line.value) else {
            throw .malformed(line: line.line, reason: "\(line.name): broken quoted-printable (an '=' not followed by two hex digits)")
        }
        let charset = line.values(of: "CHARSET").first?.uppercased() ?? "UTF-8"
        let text: String
        switch charset {
        case "UTF-8", "US-ASCII", "ASCII":
            guard let utf8 = String(validating: bytes, as: UTF8.self) else {
                throw .malformed(line: line.line, reason: "\(line.name): quoted-printable text is not valid \(charset)")
            }
            text = utf8
        case "ISO-8859-1", "LATIN1", "WINDOWS-1252", "CP1252":
            // Latin-1 maps byte for byte; the Windows code page differs only in 0x80–0x9F, controls in Latin-1.
            text = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default:
            throw .malformed(line: line.line, reason: "\(line.name): CHARSET=\(VCFContentLine.excerpt(charset)) is not read (UTF-8 and ISO-8859-1 are)")
        }
        var out = ""
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let s = pending {
            pending = scalars.next()
            switch s {
            case "\r":
                out += "\\n"
                if pending == "\n" { pending = scalars.next() }
            case "\n": out += "\\n"
            default:
                if (s.value < 0x20 && s != "\t") || (0x7F...0x9F).contains(s.value) {
                    throw .malformed(line: line.line, reason: "\(line.name): a control character (\(s.codePointLabel)) in quoted-printable text")
                }
                out.unicodeScalars.append(s)
            }
        }
        var plain = line
        plain.value = out
        plain.parameters = line.parameters.filter { !($0.name == "ENCODING" || $0.name == "CHARSET") }
            .map { ($0.name, $0.values.filter { $0.uppercased() != "QUOTED-PRINTABLE" }) }
            .filter { !$0.1.isEmpty }
        return plain
    }

    /// The bytes of a quoted-printable text (`=XX` escapes; soft breaks already joined); nil when broken.
    static func quotedPrintable(_ text: String) -> [UInt8]? {
        let u = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(u.count)
        var i = 0
        while i < u.count {
            guard u[i] == UInt8(ascii: "=") else { out.append(u[i]); i += 1; continue }
            guard let high = hex(u[safe: i + 1]), let low = hex(u[safe: i + 2]) else { return nil }
            out.append(high << 4 | low)
            i += 3
        }
        return out
    }

    private static func hex(_ b: UInt8?) -> UInt8? {
        guard let b else { return nil }
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
