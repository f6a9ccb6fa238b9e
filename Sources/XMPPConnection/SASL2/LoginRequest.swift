import XMPPStanzas

/// What authenticates a log-in: the password, cached SCRAM keys, or a FAST token.
public enum LoginCredential: Sendable {
    /// The password (SCRAM; PLAIN only where `SASLSelection` allows it).
    case password(String)
    /// SCRAM keys cached from an earlier exchange.
    case keys(SCRAMKeys)
    /// A FAST token (XEP-0484) and the mechanism it was issued for.
    case token(FASTMechanism, secret: String)
}

/// One log-in: authentication and resource binding, over SASL2 with Bind 2 where the server
/// offers them (ARCHITECTURE.md §4), else RFC 6120 SASL, a stream restart and a bind.
public struct LoginRequest: Sendable {
    /// The SASL authentication identity (the JID's local part).
    public var username: String
    /// What to authenticate with.
    public var credential: LoginCredential
    /// The account used SCRAM or FAST before: PLAIN is refused as a downgrade.
    public var usedSCRAMBefore: Bool
    /// Refuse PLAIN before sending anything: the caller needs keys or a token to cache.
    public var requireSCRAM: Bool
    /// A resource of the caller's choice; Bind 2 lets the server choose, so a named resource
    /// is bound the RFC 6120 way after SASL2. Nil: `xmpp-tools.<random>` (or Bind 2's).
    public var resource: String?
    /// The stable client id FAST tokens are tied to (XEP-0388 `<user-agent id=…>`).
    public var userAgentID: String?
    /// Ask for a FAST token where the server offers FAST.
    public var requestToken: Bool
    /// With a token credential: ask the server to invalidate it (log-out).
    public var invalidateToken: Bool
    /// Bind a resource after authenticating.
    public var bind: Bool
    /// The SASL2 mechanism the server offered at the session's last log-in (the token's, or the
    /// cached keys'). On a `pipelined` connection the stream header and `<authenticate/>` then
    /// go in one write; if the features that arrive would not make the same choice, the log-in
    /// throws `SASLError.rememberedOfferChanged` and the caller connects again without it.
    public var expectedMechanism: String?

    /// A request from its parts.
    public init(username: String, credential: LoginCredential, usedSCRAMBefore: Bool, requireSCRAM: Bool = false,
                resource: String? = nil, userAgentID: String? = nil, requestToken: Bool = false,
                invalidateToken: Bool = false, bind: Bool = true, expectedMechanism: String? = nil) {
        self.username = username
        self.credential = credential
        self.usedSCRAMBefore = usedSCRAMBefore
        self.requireSCRAM = requireSCRAM
        self.resource = resource
        self.userAgentID = userAgentID
        self.requestToken = requestToken
        self.invalidateToken = invalidateToken
        self.bind = bind
        self.expectedMechanism = expectedMechanism
    }
}

/// What a log-in produced.
public struct LoginOutcome: Sendable {
    /// The mechanism that authenticated, e.g. `SCRAM-SHA-256-PLUS` or `HT-SHA-256-EXPR`.
    public var mechanism: String
    /// SCRAM keys that authenticate again without the password (nil after PLAIN or a token).
    public var keys: SCRAMKeys?
    /// A FAST token the server issued (asked for, or rotated), with its mechanism.
    public var token: (mechanism: FASTMechanism, token: FASTToken)?
    /// The bound full JID (nil when `bind` was false).
    public var boundJID: JID?
    /// SASL2 was used.
    public var usedSASL2: Bool
    /// The server sent an XEP-0474 hash and it matched.
    public var downgradeProtected: Bool
}
