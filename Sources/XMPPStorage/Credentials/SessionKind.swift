/// How a stored session authenticates again (ARCHITECTURE.md §4), in the order a login prefers
/// them; `xmpp-login status` reports it under the stable JSON key `session_kind`.
public enum SessionKind: String, Sendable, Codable, CaseIterable {
    /// SCRAM salt, iteration count and derived keys: works while the server's salt stays.
    case scramKeys = "scram-keys"
    /// A command that prints the password (a password manager), run at each authentication,
    /// for servers whose SCRAM keys cannot be cached. The password itself is never stored.
    case passwordCommand = "password-command"
}
