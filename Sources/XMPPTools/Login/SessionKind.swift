import CryptoPrimitives

/// `xmpp-login --session`: which kind of cached session a password log-in leaves.
enum SessionKindChoice: String, Sendable, CaseIterable {
    /// A FAST token where the server offers FAST (XEP-0484), else SCRAM keys.
    case auto
    /// A FAST token; a server without FAST is an error.
    case fast
    /// SCRAM keys, even where the server offers FAST.
    case scramKeys = "scram-keys"
}

/// A random UUID (version 4) for `<user-agent id=…>`: one per session, shared by every tool of
/// the account, since the server ties the FAST token to it.
enum UserAgentID {
    static func make() -> String {
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
