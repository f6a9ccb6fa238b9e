import XMLTree
import XMPPStanzas

/// Everything that can go wrong between the socket and a bound session.
public enum ConnectionError: Error, Sendable, CustomStringConvertible {
    /// A host name did not resolve.
    case dnsFailed(host: String, reason: String)
    /// No address of the host accepted a TCP connection.
    case connectFailed(host: String, port: Int, reason: String)
    /// Nothing arrived (or could be sent) before the deadline.
    case timedOut(String)
    /// The peer closed the TCP connection.
    case closedByPeer
    /// The peer closed a plain connection before sending a single byte (named `host:port`).
    case closedWithoutAnswer(String)
    /// A socket read or write failed.
    case io(String)
    /// The TLS handshake or record layer failed.
    case tls(String)
    /// The server's certificate was not trusted for the expected name.
    case certificateRejected(String)
    /// The name the certificate must match cannot be handed to OpenSSL's check, so the
    /// certificate cannot be verified for it.
    case referenceNameUnusable(String)
    /// The server's public key did not match `--pin`.
    case pinMismatch(expected: String, actual: String)
    /// The server ended the stream with an error.
    case stream(StreamError)
    /// The server sent bytes that are not acceptable XML.
    case xml(XMLTreeError)
    /// The server sent a stanza this client cannot read.
    case badStanza(StanzaParseError)
    /// The peer speaks another protocol (HTTP, or TLS where a stream was expected, or the
    /// reverse); the text is the whole sentence for people.
    case wrongProtocol(peer: String, answered: PeerGreeting)
    /// The server broke the protocol in some other way.
    case protocolViolation(String)
    /// The server offers no TLS, and the client will not talk in clear text.
    case tlsUnavailable
    /// SASL failed on the client side (no common mechanism, bad server message, bad signature).
    case sasl(SASLError)
    /// The server rejected the credentials (`<failure/>`), with its condition and text.
    case authenticationFailed(condition: String, text: String?)
    /// The server answered a request with a stanza error.
    case stanzaError(StanzaError)
    /// The stream was closed by the server.
    case streamClosed

    public var description: String {
        switch self {
        case .dnsFailed(let h, let r): return "cannot resolve \(h): \(r)"
        case .connectFailed(let h, let p, let r): return "cannot connect to \(h) port \(p): \(r)"
        case .timedOut(let what): return "timed out \(what)"
        case .closedByPeer: return "the server closed the connection"
        case .closedWithoutAnswer(let peer): return "\(peer) closed the connection without answering"
        case .io(let r): return "connection error: \(r)"
        case .tls(let r): return "TLS failed: \(r)"
        case .certificateRejected(let r): return "server certificate rejected: \(r)"
        case .referenceNameUnusable(let n): return "cannot check the server certificate for '\(n)': not a usable host name or IP address"
        case .pinMismatch(let e, let a): return "server key does not match the pin: expected \(e), got \(a)"
        case .stream(let e): return "stream error from server: \(e)"
        case .xml(let e): return "server sent invalid XML: \(e)"
        case .badStanza(let e): return "server sent an invalid stanza: \(e)"
        case .wrongProtocol(let peer, let greeting): return "\(peer) \(greeting.answered)"
        case .protocolViolation(let r): return "protocol error: \(r)"
        case .tlsUnavailable: return "the server does not offer TLS (refusing to continue in clear text)"
        case .sasl(let e): return "authentication failed: \(e)"
        case .authenticationFailed(let c, let t):
            return "authentication failed: " + (t.map { "\(c): \($0)" } ?? c)
        case .stanzaError(let e): return "server error: \(e)"
        case .streamClosed: return "the server closed the stream"
        }
    }
}
