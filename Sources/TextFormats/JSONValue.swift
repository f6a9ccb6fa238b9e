/// A JSON value with ordered object keys, so `--json` output has stable field order.
/// Not `indirect`: arrays already hold their elements out of line, and boxing every case would
/// cost an allocation and a release per value (docs/DESIGN-NOTES.md "Roster").
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// Compact one-line JSON.
    public var compact: String { rendered(indent: nil) }

    /// Pretty JSON with two-space indentation.
    public var pretty: String { String(decoding: prettyUTF8, as: UTF8.self) }

    /// `pretty` as UTF-8 bytes, for output that goes straight to a file descriptor (no String
    /// made, validated and copied again on the way: 600 KB for a 2,000-contact list).
    public var prettyUTF8: [UInt8] { renderedBytes(indent: Array("  ".utf8)) }

    /// Appends this value as `prettyUTF8` writes it when nested `level` deep, for writers that
    /// stream the outer layers themselves (a roster list's rows) and must lay out the same bytes.
    public func appendPretty(to bytes: inout [UInt8], level: Int) {
        write(into: &bytes, indent: Array("  ".utf8), level: level)
    }

    /// Appends `str` as a JSON string literal, escaped as every JSONValue string is.
    public static func appendQuoted(_ str: String, to bytes: inout [UInt8]) { quote(str, into: &bytes) }

    /// An optional string as `null` or a string.
    public static func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }

    // Written as UTF-8 bytes, not String appends of small literals (docs/DESIGN-NOTES.md "Roster").
    private func rendered(indent: [UInt8]?) -> String {
        String(decoding: renderedBytes(indent: indent), as: UTF8.self)
    }

    private func renderedBytes(indent: [UInt8]?) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(into: &bytes, indent: indent, level: 0)
        return bytes
    }

    private func write(into s: inout [UInt8], indent: [UInt8]?, level: Int) {
        switch self {
        case .null: s += "null".utf8
        case .bool(let b): s += (b ? "true" : "false").utf8
        case .int(let i): s += String(i).utf8
        case .double(let d): s += (d.isFinite ? String(d) : "null").utf8
        case .string(let str): JSONValue.quote(str, into: &s)
        case .array(let items):
            if items.isEmpty { s += "[]".utf8; return }
            s.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { s.append(UInt8(ascii: ",")) }
                newline(&s, indent, level + 1)
                item.write(into: &s, indent: indent, level: level + 1)
            }
            newline(&s, indent, level)
            s.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { s += "{}".utf8; return }
            s.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { s.append(UInt8(ascii: ",")) }
                newline(&s, indent, level + 1)
                JSONValue.quote(key, into: &s)
                s.append(UInt8(ascii: ":"))
                if indent != nil { s.append(UInt8(ascii: " ")) }
                value.write(into: &s, indent: indent, level: level + 1)
            }
            newline(&s, indent, level)
            s.append(UInt8(ascii: "}"))
        }
    }

    private func newline(_ s: inout [UInt8], _ indent: [UInt8]?, _ level: Int) {
        guard let indent else { return }
        s.append(UInt8(ascii: "\n"))
        for _ in 0..<level { s += indent }
    }

    /// `str` as a JSON string literal appended to `s`.
    static func quote(_ str: String, into s: inout [UInt8]) {
        s.append(UInt8(ascii: "\""))
        // Most strings (JIDs, states) are printable ASCII without quotes or backslashes: copied whole,
        // checked and appended as the contiguous bytes, not through the UTF8View's iterator and
        // a generic append.
        let copied = str.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) else { return false }
            s.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            s.append(UInt8(ascii: "\""))
            return
        }
        for scalar in str.unicodeScalars {
            switch scalar {
            case "\"": s += "\\\"".utf8
            case "\\": s += "\\\\".utf8
            case "\n": s += "\\n".utf8
            case "\r": s += "\\r".utf8
            case "\t": s += "\\t".utf8
            default:
                // Beyond the C0 controls JSON requires escaped, DEL, C1 and the bidirectional
                // controls are too (the same string to a parser), so raw output on a terminal is safe.
                if TerminalText.needsEscape(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    s += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8
                } else {
                    s += String(scalar).utf8
                }
            }
        }
        s.append(UInt8(ascii: "\""))
    }

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.compact == b.compact }
}
