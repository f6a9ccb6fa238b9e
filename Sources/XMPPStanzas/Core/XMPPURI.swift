/// A JID as an `xmpp:` URI (RFC 5122) and back, for vCard's IMPP property (RFC 6350 §6.4.3),
/// whose value is a URI (RFC 3986: ASCII, never backslash-escaped in a vCard): every octet of
/// the JID's UTF-8 other than letters, digits, `-._~`, the `@` and `/` that separate its parts
/// and RFC 3986's sub-delimiters that RFC 5122 lets a JID keep is percent-encoded (non-ASCII
/// text, `%`, `?`, `#`, spaces, quotes), so the value can neither end the vCard line nor be read
/// as a query or fragment. A JID that starts with `/` has that slash encoded too, so that
/// `//` right after the scheme is never read as an authority (RFC 5122 §2.3).
public enum XMPPURI {
    /// `xmpp:` and `jid`, percent-encoded.
    public static func string(_ jid: String) -> String {
        var out = "xmpp:"
        for (offset, byte) in jid.utf8.enumerated() {
            if keeps(byte), !(offset == 0 && byte == UInt8(ascii: "/")) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count < 2 ? "0" : "") + hex
            }
        }
        return out
    }

    /// The JID an `xmpp:` URI names (its query and fragment left out), percent-decoded; nil
    /// for another scheme. A `%` not followed by two hex digits, or octets that are not UTF-8
    /// once decoded, are kept as written (what other clients write without encoding).
    public static func jid(_ uri: String) -> String? {
        guard uri.lowercased().hasPrefix("xmpp:") else { return nil }
        var path = Array(uri.utf8.dropFirst(5))
        if path.starts(with: Array("//".utf8)) {
            // An authority (the account to act as, RFC 5122 §2.3) comes before the JID's path.
            let rest = path.dropFirst(2)
            path = Array(rest.drop { $0 != UInt8(ascii: "/") }.dropFirst())
        }
        if let end = path.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { path = Array(path[..<end]) }
        var decoded: [UInt8] = []
        var i = 0
        while i < path.count {
            if path[i] == UInt8(ascii: "%"), i + 2 < path.count, let high = hex(path[i + 1]), let low = hex(path[i + 2]) {
                decoded.append(high << 4 | low)
                i += 3
            } else {
                decoded.append(path[i])
                i += 1
            }
        }
        return String(validating: decoded, as: UTF8.self) ?? String(decoding: path, as: UTF8.self)
    }

    private static func keeps(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~@/!$()*+,;=".utf8.contains(byte)
        }
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
