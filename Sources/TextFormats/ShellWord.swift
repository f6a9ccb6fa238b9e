/// POSIX shell words (XCU 2.2.2): between single quotes every byte stands for itself, so any
/// text without NUL is one word written `'…'`, each `'` in it closed, escaped and reopened as
/// `'\''`. The quote is found among the UTF-8 bytes, never among Characters: a combining mark,
/// a variation selector or a zero-width joiner after `'` makes one grapheme cluster of the two,
/// which a Character-level search skips, leaving the quote open and the rest to the shell.
public enum ShellWord {
    /// `text` as one shell word, or nil when it holds a NUL byte, which no argument can carry.
    public static func quoted(_ text: String) -> String? {
        var out: [UInt8] = [UInt8(ascii: "'")]
        out.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            switch byte {
            case 0: return nil
            case UInt8(ascii: "'"): out += Array("'\\''".utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "'"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The words of `line` as `sh` splits a line of `quoted` words separated by spaces: single
    /// quotes, `\` outside them, and nothing else (no expansion). nil for anything else: an
    /// unquoted `$`, backquote, `;`, `|`, `&`, `<`, `>`, `(`, `)`, an unclosed quote — what would
    /// not be plain words to a shell. The check a writer's output is held to (tests, fuzzing).
    public static func words(_ line: String) -> [String]? {
        var words: [String] = []
        var current: [UInt8] = []
        var inWord = false
        let bytes = Array(line.utf8)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            i += 1
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                if inWord { words.append(String(decoding: current, as: UTF8.self)) }
                current.removeAll(keepingCapacity: true)
                inWord = false
            case UInt8(ascii: "'"):
                guard let close = bytes[i...].firstIndex(of: UInt8(ascii: "'")) else { return nil }
                current += bytes[i..<close]
                i = close + 1
                inWord = true
            case UInt8(ascii: "\\"):
                guard i < bytes.count, bytes[i] != UInt8(ascii: "\n") else { return nil }
                current.append(bytes[i])
                i += 1
                inWord = true
            case UInt8(ascii: "$"), UInt8(ascii: "`"), UInt8(ascii: ";"), UInt8(ascii: "|"), UInt8(ascii: "&"),
                 UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\""),
                 UInt8(ascii: "\n"), UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "#"), UInt8(ascii: "~"):
                return nil
            default:
                current.append(byte)
                inWord = true
            }
        }
        if inWord { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }
}
