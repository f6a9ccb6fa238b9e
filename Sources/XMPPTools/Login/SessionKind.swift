/// `xmpp-login --session`: which kind of cached session a password log-in leaves.
enum SessionKindChoice: String, Sendable, CaseIterable {
    /// A FAST token where the server offers FAST (XEP-0484), else SCRAM keys.
    case auto
    /// A FAST token; a server without FAST is an error.
    case fast
    /// SCRAM keys, even where the server offers FAST.
    case scramKeys = "scram-keys"
}
