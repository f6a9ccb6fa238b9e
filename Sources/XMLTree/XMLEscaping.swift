/// Escaping of character data and attribute values for XML 1.0 output.
///
/// Characters XML 1.0 cannot carry (C0 controls other than tab, line feed and carriage return,
/// U+FFFE, U+FFFF) are replaced with U+FFFD. Carriage returns (and, in attributes, tabs and
/// line feeds) are written as character references so a parser reads them back unchanged.
public enum XMLEscaping {
    /// `text` escaped for use as element content: `&`, `<`, `>` and carriage return.
    public static func text(_ text: String) -> String {
        var output = ""
        appendText(text, to: &output)
        return output
    }

    /// `value` escaped for an attribute quoted with `'`: `&`, `<`, `>`, `"`, `'`, tab, line feed, carriage return.
    public static func attribute(_ value: String) -> String {
        var output = ""
        appendAttribute(value, to: &output)
        return output
    }

    /// Appends `text` escaped as element content.
    static func appendText(_ text: String, to output: inout String) {
        append(text, to: &output, inAttribute: false)
    }

    /// Appends `value` escaped for a `'`-quoted attribute.
    static func appendAttribute(_ value: String, to output: inout String) {
        append(value, to: &output, inAttribute: true)
    }

    private static func append(_ string: String, to output: inout String, inAttribute: Bool) {
        if !mayNeedEscaping(string, inAttribute: inAttribute) {
            output += string
            return
        }
        let scalars = string.unicodeScalars
        var runStart = scalars.startIndex
        var index = runStart
        while index != scalars.endIndex {
            let next = scalars.index(after: index)
            if let replacement = replacement(for: scalars[index], inAttribute: inAttribute) {
                output += string[runStart..<index]
                output += replacement
                runStart = next
            }
            index = next
        }
        output += string[runStart..<scalars.endIndex]
    }

    /// A cheap byte scan: false means the string can be copied as is.
    private static func mayNeedEscaping(_ string: String, inAttribute: Bool) -> Bool {
        string.utf8.contains { byte in
            switch byte {
            case 0x00..<0x20, UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), 0xEF: return true
            case UInt8(ascii: "'"), UInt8(ascii: "\""): return inAttribute
            default: return false
            }
        }
    }

    private static func replacement(for scalar: Unicode.Scalar, inAttribute: Bool) -> String? {
        switch scalar.value {
        case 0x26: return "&amp;"
        case 0x3C: return "&lt;"
        case 0x3E: return "&gt;"
        case 0x22: return inAttribute ? "&quot;" : nil
        case 0x27: return inAttribute ? "&apos;" : nil
        case 0x09: return inAttribute ? "&#9;" : nil
        case 0x0A: return inAttribute ? "&#10;" : nil
        case 0x0D: return "&#13;"
        case 0x00..<0x20, 0xFFFE, 0xFFFF: return "\u{FFFD}"
        default: return nil
        }
    }
}
