import Glibc

/// How the name a certificate must match (the JID's domain) is checked: as an IP address or as
/// a DNS name (RFC 6125). Decided by `inet_pton`, the same parser OpenSSL's IP check uses, so
/// `127.1` or `2130706433` (which `inet_aton` would take for addresses) are DNS names here.
enum ReferenceName: Equatable {
    /// An IPv4 or IPv6 literal, brackets removed: checked against the certificate's IP SANs.
    case ipAddress(String)
    /// Anything else: checked against its DNS names, and sent as SNI.
    case dnsName(String)

    init(_ name: String) {
        let unbracketed = name.hasPrefix("[") && name.hasSuffix("]") && name.count >= 2
            ? String(name.dropFirst().dropLast()) : name
        if Self.isIPLiteral(unbracketed, family: AF_INET6) || Self.isIPLiteral(unbracketed, family: AF_INET) {
            self = .ipAddress(unbracketed)
        } else {
            self = .dnsName(name)
        }
    }

    private static func isIPLiteral(_ text: String, family: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return text.withCString { inet_pton(family, $0, &buffer) } == 1
    }
}
