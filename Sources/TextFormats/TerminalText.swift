/// Text from the network (or a user) made safe to print: characters that move the cursor, end a
/// line, drive the terminal or reorder what is shown are written as visible escapes, so a
/// stranger's status text can neither forge lines nor colour the terminal.
public enum TerminalText {
    /// `\n`, `\r`, `\t` and `\e` for the common controls; `U+XXXX` (as errors name characters)
    /// for the other C0 and C1 controls, DEL, the bidirectional controls and the line and
    /// paragraph separators. With `escapingBackslash` a backslash is doubled, so the escapes
    /// can be undone (tab-separated output for scripts).
    public static func escaped(_ text: String, escapingBackslash: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) || (escapingBackslash && $0 == "\\") }) else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for s in text.unicodeScalars {
            switch s {
            case "\\" where escapingBackslash: out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{1B}": out += "\\e"
            default:
                if needsEscape(s) { out += s.codePointLabel } else { out.unicodeScalars.append(s) }
            }
        }
        return out
    }

    /// Appends `escaped(text)`'s UTF-8 to `bytes`. Printable ASCII, which needs no escape, is
    /// copied as it is without a scalar walk or a String made (most roster cells).
    public static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        let copied = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied != true { bytes.append(contentsOf: escaped(text).utf8) }
    }

    /// Whether `s` is shown as an escape: C0, DEL, C1, U+061C, U+200E/F, U+2028/9, U+202A–E, U+2066–9.
    public static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
