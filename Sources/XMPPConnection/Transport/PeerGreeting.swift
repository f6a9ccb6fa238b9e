/// What a peer's first bytes say it speaks, so "pointed at the wrong port" gets a sentence
/// instead of a parser's or OpenSSL's complaint about the bytes.
enum PeerGreeting: Equatable {
    /// `HTTP/1.x …`: a web server (it answered the stream header or ClientHello with an error page).
    case http
    /// A TLS record (handshake or alert): a direct-TLS port reached without `--direct-tls`.
    case tls
    /// `<`: plain XML, e.g. an XMPP STARTTLS port reached with `--direct-tls`.
    case xml

    /// Recognises the first bytes of a connection; nil when they say nothing clear.
    init?(_ bytes: some Collection<UInt8>) {
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

    /// The sentence for a connection to `peer` that expected TLS (`expectedTLS`) or an XML stream.
    func mismatch(peer: String, expectedTLS: Bool) -> String? {
        switch (self, expectedTLS) {
        case (.http, _):
            return "\(peer) answered HTTP, not XMPP: --server must name the server's XMPP client port "
                + "(usually 5222, or 5223 with --direct-tls), not a web port"
        case (.tls, false):
            return "\(peer) answered with TLS, not an XMPP stream: it looks like a direct-TLS port; add --direct-tls"
        case (.xml, true):
            return "\(peer) answered in plain text, not TLS: it looks like a STARTTLS port; leave out --direct-tls"
        default:
            return nil
        }
    }
}
