/// A JSON value with ordered object keys, so `--json` output has stable field order.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// Compact one-line JSON.
    public var compact: String {
        var s = ""
        write(into: &s, indent: nil, level: 0)
        return s
    }

    /// Pretty JSON with two-space indentation.
    public var pretty: String {
        var s = ""
        write(into: &s, indent: "  ", level: 0)
        return s
    }

    /// An optional string as `null` or a string.
    public static func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }

    private func write(into s: inout String, indent: String?, level: Int) {
        switch self {
        case .null: s += "null"
        case .bool(let b): s += b ? "true" : "false"
        case .int(let i): s += String(i)
        case .double(let d): s += d.isFinite ? String(d) : "null"
        case .string(let str): JSONValue.quote(str, into: &s)
        case .array(let items):
            if items.isEmpty { s += "[]"; return }
            s += "["
            for (i, item) in items.enumerated() {
                if i > 0 { s += "," }
                newline(&s, indent, level + 1)
                item.write(into: &s, indent: indent, level: level + 1)
            }
            newline(&s, indent, level)
            s += "]"
        case .object(let members):
            if members.isEmpty { s += "{}"; return }
            s += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { s += "," }
                newline(&s, indent, level + 1)
                JSONValue.quote(key, into: &s)
                s += indent == nil ? ":" : ": "
                value.write(into: &s, indent: indent, level: level + 1)
            }
            newline(&s, indent, level)
            s += "}"
        }
    }

    private func newline(_ s: inout String, _ indent: String?, _ level: Int) {
        guard let indent else { return }
        s += "\n"
        for _ in 0..<level { s += indent }
    }

    static func quote(_ str: String, into s: inout String) {
        s += "\""
        // Most strings (JIDs, states) are printable ASCII without quotes or backslashes: one
        // append instead of one per scalar (2,000 contacts: most of list --cached's time).
        if str.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            s += str
            s += "\""
            return
        }
        for scalar in str.unicodeScalars {
            switch scalar {
            case "\"": s += "\\\""
            case "\\": s += "\\\\"
            case "\n": s += "\\n"
            case "\r": s += "\\r"
            case "\t": s += "\\t"
            default:
                // Beyond the C0 controls JSON requires escaped, DEL, C1 and the bidirectional
                // controls are too (the same string to a parser), so raw output on a terminal is safe.
                if TerminalText.needsEscape(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    s += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    s.unicodeScalars.append(scalar)
                }
            }
        }
        s += "\""
    }

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.compact == b.compact }
}
