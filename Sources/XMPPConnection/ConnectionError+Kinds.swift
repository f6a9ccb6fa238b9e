import XMPPStanzas

/// The questions callers ask of a failure, answered once here so that failover, retries, cache
/// fallbacks and exit statuses cannot disagree about what a failure means.
extension ConnectionError {
    /// Nothing answered at this address: the name did not resolve or no TCP connection could be
    /// made. Another endpoint may answer; this one will not by waiting.
    public var isUnreachable: Bool {
        switch self {
        case .dnsFailed, .connectFailed: return true
        default: return false
        }
    }

    /// The path to the server failed (unreachable, a timeout, a dropped or closed connection),
    /// as opposed to the server answering something: a cached answer is better than none, and
    /// another endpoint is worth trying.
    public var isLinkFailure: Bool {
        if isUnreachable { return true }
        switch self {
        case .timedOut, .closedByPeer, .closedWithoutAnswer, .io, .streamClosed: return true
        default: return false
        }
    }

    /// A later attempt can overcome it: link failures, garbled input, throttling and the stream
    /// errors of a server that restarts or is overloaded. Certificates, TLS, refusals and a
    /// server that does not serve the domain will not go away by themselves.
    public var isTransient: Bool {
        if isLinkFailure { return true }
        switch self {
        case .xml, .badStanza: return true
        case .stream(let e): return Self.transientStreamConditions.contains(e.condition)
        case .stanzaError(let e): return e.isThrottle
        default: return false
        }
    }

    /// The server refused the credentials or cached keys (the password changed, the keys are
    /// stale, or the server's proof failed): authenticate again with the password, do not retry.
    public var isAuthRejection: Bool {
        switch self {
        case .authenticationFailed: return true
        case .sasl(.cachedKeysStale), .sasl(.serverSignatureMismatch): return true
        default: return false
        }
    }

    /// RFC 6120 §4.9.3 conditions a server sends when it is going away or overloaded.
    static let transientStreamConditions: Set<String> = [
        "policy-violation", "resource-constraint", "system-shutdown", "connection-timeout", "reset",
        "internal-server-error", "remote-connection-failed", "undefined-condition",
    ]
}
