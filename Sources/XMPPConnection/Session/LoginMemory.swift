/// What the server offered at a log-in with cached SCRAM keys: SASL2 or RFC 6120 SASL, and the
/// mechanism the keys went with. Remembered, the next log-in sends `<starttls/>` with the first
/// header and, for SASL2, `<authenticate/>` with the header after TLS (`LoginRequest.expectedMechanism`).
public struct RememberedOffer: Equatable, Sendable {
    /// The mechanism that authenticated, e.g. `SCRAM-SHA-256-PLUS`.
    public var mechanism: String
    /// The log-in went over SASL2.
    public var sasl2: Bool

    /// An offer from its parts.
    public init(mechanism: String, sasl2: Bool) {
        self.mechanism = mechanism
        self.sasl2 = sasl2
    }
}

/// Where an account's log-in memory is kept between runs (ARCHITECTURE.md §4). `SessionLogIn`
/// decides what is worth remembering; the caller's store (the account and session files) keeps
/// it, so no command decides when an account becomes one that refuses PLAIN.
public protocol LoginMemory {
    /// The account authenticated with SCRAM (or FAST): a later offer of PLAIN alone is refused as a downgrade.
    func rememberSCRAM() throws
    /// The server's offer changed from the one the cached keys remembered: keep the new one.
    func rememberOffer(_ offer: RememberedOffer) throws
}

/// Where an account's FAST token (XEP-0484) is kept between runs. `FASTResume` reads it, uses it
/// and hands the token the server rotates it to back, all inside one `withTokenInUse`, so two
/// tools of one account never use a token the other has just had replaced.
public protocol FASTTokenStore {
    /// Runs `body` as the only user of the account's token (the store's lock).
    func withTokenInUse<T>(_ body: () throws -> T) throws -> T
    /// The same without waiting, for a log-in taken a step at a time (`FASTLoginPolicy`): the
    /// hold, which the caller releases once the rotated token is kept or the log-in failed, or
    /// nil while another stream or program uses the token.
    func tryTokenInUse() throws -> FASTTokenHold?
    /// The token as the store holds it now; nil when the account no longer has a token session.
    func current() throws -> FASTTokenState?
    /// Keeps the token the server rotated to.
    func keep(_ rotated: FASTTokenState) throws
    /// Forgets the session whose token was just ended on the server (log-out).
    func discard() throws
}

/// A store's hold on an account's token (`FASTTokenStore.tryTokenInUse`).
public protocol FASTTokenHold: AnyObject {
    /// Lets the token go (safe to call more than once).
    func release()
}

/// A FAST token as a session keeps it.
public struct FASTTokenState: Equatable, Sendable {
    /// The token mechanism, e.g. `HT-SHA-256-EXPR`.
    public var mechanism: String
    /// The token. A secret.
    public var token: String
    /// When the server said it expires (XEP-0082).
    public var expiry: String
    /// The `<user-agent id=…>` the token is tied to.
    public var userAgentID: String
    /// The token the last rotation replaced (Prosody 13 keeps it valid until the new one is used). A secret.
    public var previousToken: String?

    /// A token from its parts.
    public init(mechanism: String, token: String, expiry: String, userAgentID: String, previousToken: String? = nil) {
        self.mechanism = mechanism
        self.token = token
        self.expiry = expiry
        self.userAgentID = userAgentID
        self.previousToken = previousToken
    }
}
