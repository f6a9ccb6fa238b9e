import XMPPConnection
import XMPPStanzas

/// How the engines read server answers and connection failures.
enum ReplyClassifier {
    /// What a registration error reply means for its row.
    enum Verdict: Equatable {
        /// `conflict`: the account exists.
        case exists
        /// Throttled or a transient server problem: back off and send again.
        case retry
        /// A definitive refusal for this row.
        case refused
    }

    /// Classifies a stanza error answering a registration.
    static func verdict(_ error: StanzaError) -> Verdict {
        if error.condition == .conflict { return .exists }
        if isThrottle(error) { return .retry }
        return .refused
    }

    /// `resource-constraint`, `policy-violation` and any `type='wait'` error: slow down, retry.
    static func isThrottle(_ error: StanzaError) -> Bool {
        error.type == "wait" || error.condition == .resourceConstraint || error.condition == .policyViolation
    }

    /// True for failures that later attempts can overcome (drops, timeouts, refusals while a
    /// server restarts, throttling stream errors); false for those that will not go away by
    /// themselves (certificates, TLS, a server that does not serve the domain).
    static func isTransient(_ error: ConnectionError) -> Bool {
        switch error {
        case .dnsFailed, .connectFailed, .timedOut, .closedByPeer, .closedWithoutAnswer, .io, .streamClosed, .xml, .badStanza:
            return true
        case .stream(let e):
            return ["policy-violation", "resource-constraint", "system-shutdown", "connection-timeout", "reset",
                    "internal-server-error", "remote-connection-failed", "undefined-condition"].contains(e.condition)
        case .stanzaError(let e):
            return isThrottle(e)
        default:
            return false
        }
    }

    /// True when the server could not be reached at all (nothing listens, no such host).
    static func isUnreachable(_ error: ConnectionError) -> Bool {
        switch error {
        case .dnsFailed, .connectFailed: return true
        default: return false
        }
    }

    /// One line for a row's error: the condition and the server's text.
    static func describe(_ error: StanzaError) -> String { error.description }
}
