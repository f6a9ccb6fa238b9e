/// How a connection decides whether to trust the server (ARCHITECTURE.md §3, §5).
public struct TLSSettings: Sendable, Hashable, Codable {
    /// Extra trust anchors (PEM) instead of the system store.
    public var caFile: String?
    /// SPKI pin, `sha256/BASE64`: the server's public key must hash to this. Alone (no
    /// `caFile`), a matching pin is the trust decision, as for a self-signed private server.
    public var pin: String?
    /// Skip all verification (the tools warn loudly).
    public var insecure: Bool

    /// Builds settings; the default verifies against the system store.
    public init(caFile: String? = nil, pin: String? = nil, insecure: Bool = false) {
        self.caFile = caFile
        self.pin = pin
        self.insecure = insecure
    }
}

/// The TLS protocol version a connection negotiated.
public enum TLSVersion: String, Sendable, Codable {
    case tls12 = "TLSv1.2"
    case tls13 = "TLSv1.3"
    case other = "unknown"
}
