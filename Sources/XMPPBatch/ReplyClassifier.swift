import XMPPServices
import XMPPStanzas

/// How the engines read a registration's error reply (connection failures answer for
/// themselves: `ConnectionError.isTransient`, `isUnreachable`).
enum ReplyClassifier {
    /// What a registration error reply means for its row.
    enum Verdict: Equatable {
        /// `conflict`: the account exists.
        case exists
        /// Throttled or a transient server problem: back off and send again.
        case retry
        /// A definitive refusal for this row.
        case refused
        /// Registration is closed to this client (closed, by invitation): every row would get
        /// the same answer, so the run stops.
        case stop
    }

    /// Classifies a stanza error answering a registration.
    static func verdict(_ error: StanzaError) -> Verdict {
        if error.condition == .conflict { return .exists }
        if error.isThrottle { return .retry }
        if RegistrationRefusal(error) != nil { return .stop }
        return .refused
    }

    /// One line for a row's error: the condition and the server's text.
    static func describe(_ error: StanzaError) -> String { error.description }
}
