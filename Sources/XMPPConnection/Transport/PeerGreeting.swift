/// What a peer's first bytes say it speaks, so "pointed at the wrong port" gets a sentence
/// instead of a parser's or OpenSSL's complaint about the bytes.
public enum PeerGreeting: Sendable, Equatable {
    /// `HTTP/1.x …`: a web server (it answered the stream header or ClientHello with an error page).
    case http
    /// A TLS record (handshake or alert): a direct-TLS port reached without `--direct-tls`.
    case tls
    /// `<`: plain XML, e.g. an XMPP STARTTLS port reached with `--direct-tls`.
    case xml

    /// Recognises the first bytes of a connection; nil when they say nothing clear.
    public init?(_ bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(8))
        if head.starts(with: "HTTP/".utf8) {
            self = .http
        } else if head.count >= 2, head[0] == 0x15 || head[0] == 0x16, head[1] == 0x03 {
            self = .tls
        } else if let first = head.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }), first == UInt8(ascii: "<") {
            self = .xml
        } else {
            return nil
        }
    }

    /// Whether this greeting is not what a connection that expected TLS (`expectedTLS`) or an
    /// XML stream should get: always for HTTP, and TLS where XML was due or XML where TLS was.
    public func isMismatch(expectedTLS: Bool) -> Bool {
        switch (self, expectedTLS) {
        case (.http, _), (.tls, false), (.xml, true): return true
        default: return false
        }
    }

    /// What the peer answered, in words: `answered HTTP, not XMPP`.
    public var answered: String {
        switch self {
        case .http: return "answered HTTP, not XMPP"
        case .tls: return "answered with TLS, not an XMPP stream"
        case .xml: return "answered in plain text, not TLS"
        }
    }
}
