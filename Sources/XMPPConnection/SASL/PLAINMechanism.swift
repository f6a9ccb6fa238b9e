/// The PLAIN mechanism (RFC 4616): the password in clear, so only ever sent over TLS (the caller enforces it).
public enum PLAINMechanism {
    /// The initial response `[authzid] NUL authcid NUL passwd`, UTF-8.
    /// NUL bytes inside a field would be ambiguous and are removed.
    public static func message(authcid: String, password: String, authzid: String? = nil) -> [UInt8] {
        func field(_ text: String) -> [UInt8] { text.utf8.filter { $0 != 0 } }
        return field(authzid ?? "") + [0] + field(authcid) + [0] + field(password)
    }
}
