/// RFC 6121 §2.1.2.5 roster item subscription states, plus `remove` used in roster sets and pushes.
public enum Subscription: String, Sendable, CaseIterable {
    /// Neither side receives the other's presence.
    case none
    /// The user receives the contact's presence.
    case to
    /// The contact receives the user's presence.
    case from
    /// Both receive each other's presence.
    case both
    /// The item is (to be) deleted; only in roster sets and pushes.
    case remove

    /// True when the user receives the contact's presence (`to` or `both`).
    public var receivesPresence: Bool { self == .to || self == .both }
    /// True when the contact receives the user's presence (`from` or `both`).
    public var sendsPresence: Bool { self == .from || self == .both }
}
