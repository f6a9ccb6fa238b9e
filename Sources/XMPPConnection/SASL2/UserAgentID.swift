import CryptoPrimitives

/// A random UUID (version 4) for `<user-agent id=…>`: one per FAST session, shared by every tool of
/// the account (the server ties the token to it); a fresh one per stream otherwise, since
/// ejabberd honours a Bind 2 tag only beside a user agent.
public enum UserAgentID {
    /// A fresh random id.
    public static func make() -> String {
        var b = Crypto.randomBytes(16)
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        let hex = Hex.encode(b)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { r in
            String(hex[hex.index(hex.startIndex, offsetBy: r.lowerBound)..<hex.index(hex.startIndex, offsetBy: r.upperBound)])
        }
        return parts.joined(separator: "-")
    }
}
