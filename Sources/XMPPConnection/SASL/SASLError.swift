import CryptoPrimitives

/// Why SASL mechanism selection or a SASL exchange (RFC 4422, RFC 5802, RFC 4616) failed on the client.
public enum SASLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// None of the server's mechanisms is one this client may use here.
    case noAcceptableMechanism(offered: [String])
    /// The caller needs SCRAM (to cache keys) and the server offers none; nothing was sent.
    case scramRequired(offered: [String])
    /// Only PLAIN is left and the stream is not encrypted, so the password would travel in clear.
    case plainRequiresTLS
    /// Only PLAIN is left but this account used SCRAM before: refused as a possible downgrade attack.
    case plainRefusedAfterSCRAM
    /// The cached session's keys need SCRAM with this hash, which the server no longer offers.
    case cachedKeysUnusable(HashFunction, offered: [String])
    /// The salt or iteration count changed since the keys were cached: the password was probably changed.
    case cachedKeysStale
    /// The credential cannot be used with this mechanism (e.g. keys for another hash).
    case invalidCredential(String)
    /// The server's message breaks the SCRAM grammar; the text says how.
    case malformedServerMessage(String)
    /// The server's nonce does not extend the client's nonce, or a nonce has forbidden characters.
    case invalidNonce
    /// The server asks for fewer than 4096 PBKDF2 iterations (RFC 5802 §5.1 minimum).
    case iterationCountTooLow(Int)
    /// The server asks for more than `SCRAMMessages.maximumIterations` (600,000) PBKDF2 iterations:
    /// refused as a denial-of-service guard.
    case iterationCountTooHigh(Int)
    /// The server's signature is wrong: it does not know the password, or someone is in the middle.
    case serverSignatureMismatch
    /// The server reported a SCRAM error (`e=` attribute, e.g. `invalid-proof`).
    case serverError(String)
    /// The username cannot be prepared with SASLprep (RFC 4013); the text says why.
    case invalidUsername(String)
    /// The password cannot be prepared with SASLprep (RFC 4013); the text says why, never the password.
    case invalidPassword(String)
    /// The mechanism and the channel-binding information disagree (-PLUS without binding data, or the reverse).
    case channelBindingUnavailable
    /// The exchange's steps were called out of order; the text names the step.
    case outOfOrder(String)
    /// XEP-0474: the server's hash of its mechanism and channel-binding lists does not match
    /// the lists this client received, so someone changed them on the way: refused.
    case downgradeDetected
    /// The saved FAST token needs this mechanism, which the server does not offer now (or this
    /// connection cannot bind it to the channel).
    case fastMechanismUnavailable(String)
    /// The server accepted the FAST token without proving it knows it (XEP-0484 §3.3).
    case fastResponseMismatch
    /// The server wants more than SASL2 offers this client (`<continue/>` tasks).
    case tasksRequired([String])
    /// A pipelined log-in: the server no longer offers what the session remembered, and the
    /// stream already carries an `<authenticate/>` made for that offer. Connect again without.
    case rememberedOfferChanged

    /// One line for people.
    public var description: String {
        switch self {
        case .noAcceptableMechanism(let offered):
            "no acceptable SASL mechanism (server offers: \(offered.isEmpty ? "none" : offered.joined(separator: ", ")))"
        case .scramRequired(let offered):
            "the server offers no SCRAM mechanism (offers: \(offered.isEmpty ? "none" : offered.joined(separator: ", ")))"
        case .plainRequiresTLS:
            "the server offers only PLAIN, which is refused without TLS"
        case .plainRefusedAfterSCRAM:
            "the server offers only PLAIN but this account used SCRAM before: refusing a possible downgrade"
        case .cachedKeysUnusable(let hash, let offered):
            "the saved session needs SCRAM-\(hash.rawValue), which the server no longer offers (offers: \(offered.joined(separator: ", "))); log in again"
        case .cachedKeysStale:
            "the saved session no longer matches the server (was the password changed?); log in again"
        case .invalidCredential(let why):
            "unusable credential: \(why)"
        case .malformedServerMessage(let why):
            "malformed SCRAM message from the server: \(why)"
        case .invalidNonce:
            "the server's SCRAM nonce does not extend the client's"
        case .iterationCountTooLow(let count):
            "the server's SCRAM iteration count \(count) is below the minimum of 4096"
        case .iterationCountTooHigh(let count):
            "the server asks for \(count == Int.max ? "an absurd number of" : String(count)) SCRAM iterations, more than the \(SCRAMMessages.maximumIterations) this client computes (refused so a server cannot burn this machine's CPU)"
        case .serverSignatureMismatch:
            "the server's SCRAM signature is wrong: it may not be the real server"
        case .serverError(let value):
            "the server rejected authentication: \(value)"
        case .invalidUsername(let why):
            "invalid username: \(why)"
        case .invalidPassword(let why):
            "invalid password: \(why)"
        case .channelBindingUnavailable:
            "channel binding data is missing or does not match the mechanism"
        case .outOfOrder(let step):
            "SCRAM steps called out of order: \(step)"
        case .downgradeDetected:
            "the server's downgrade-protection hash (XEP-0474) does not match the mechanisms it offered: someone may have tampered with them"
        case .fastMechanismUnavailable(let mechanism):
            "the saved token needs \(mechanism), which the server does not offer on this connection; log in again"
        case .fastResponseMismatch:
            "the server accepted the token without proving it knows it: it may not be the real server"
        case .tasksRequired(let tasks):
            "the server asks for further steps this tool cannot do (\(tasks.isEmpty ? "unnamed" : tasks.joined(separator: ", ")))"
        case .rememberedOfferChanged:
            "the server no longer offers the mechanisms this session remembered"
        }
    }
}
