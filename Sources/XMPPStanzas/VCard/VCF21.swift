import TextFormats

/// What vCard 2.1 writes differently, undone before a property is read as 3.0: a
/// quoted-printable value (RFC 2045 §6.7) in the CHARSET it names. Soft line breaks are joined
/// already (`VCFContentLine.lines`); a decoded line break becomes the `\n` escape 3.0 writes.
enum VCF21 {
    /// A line after decoding: as 3.0 text, or why its value cannot be used (the property is left out).
    enum Decoded {
        case line(VCFContentLine)
        case unusable(String)
    }

    /// `line` with a quoted-printable value decoded; any other line as it is. Control characters
    /// the value decodes to are taken out into `controls` (XML cannot carry C0 ones and
    /// discourages C1, a terminal must not get either); the reader names them.
    static func decoded(_ line: VCFContentLine) -> Decoded {
        let encodings = line.values(of: "ENCODING").map { $0.uppercased() } + line.values(of: "TYPE").map { $0.uppercased() }
        guard encodings.contains("QUOTED-PRINTABLE") else { return .line(line) }
        guard let bytes = quotedPrintable(line.value) else {
            return .unusable("broken quoted-printable: an '=' not followed by two hex digits")
        }
        let charset = line.values(of: "CHARSET").first?.uppercased() ?? "UTF-8"
        let text: String
        switch charset {
        case "UTF-8", "US-ASCII", "ASCII":
            guard let utf8 = String(validating: bytes, as: UTF8.self) else {
                return .unusable("its quoted-printable text is not valid \(VCFContentLine.excerpt(charset))")
            }
            text = utf8
        case "ISO-8859-1", "LATIN1", "WINDOWS-1252", "CP1252":
            // Read as Windows-1252, as browsers read both labels (WHATWG Encoding): Outlook labels
            // its text ISO-8859-1 and writes € and curly quotes in 0x80–0x9F, controls in Latin-1.
            text = String(String.UnicodeScalarView(bytes.map(windows1252)))
        default:
            return .unusable("CHARSET=\(VCFContentLine.excerpt(charset)) is not read (UTF-8, ISO-8859-1 and Windows-1252 are)")
        }
        var out = ""
        var plain = line
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
                    plain.controls.append(s)
                } else {
                    out.unicodeScalars.append(s)
                }
            }
        }
        plain.value = out
        plain.parameters = line.parameters.filter { !($0.name == "ENCODING" || $0.name == "CHARSET") }
            .map { ($0.name, $0.values.filter { $0.uppercased() != "QUOTED-PRINTABLE" }) }
            .filter { !$0.1.isEmpty }
        return .line(plain)
    }

    /// Windows-1252's 0x80–0x9F (the five it leaves undefined stay C1 controls); other bytes are Latin-1.
    static func windows1252(_ byte: UInt8) -> Unicode.Scalar {
        guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
        let code = cp1252High[Int(byte) - 0x80]
        return Unicode.Scalar(code) ?? Unicode.Scalar(byte)
    }

    private static let cp1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

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
