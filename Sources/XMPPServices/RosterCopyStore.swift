import XMPPStanzas

/// Which stored copy of an account's roster a session has: its XEP-0237 version and the store's
/// generation, which changes with every write of that account's roster by any process and is
/// never 0 (0 stands for "no stored copy").
public struct RosterCopyStamp: Sendable, Equatable {
    /// The roster version the copy matches (nil when the server does not version it, or a push
    /// came without one).
    public var ver: String?
    /// The write that stored the copy.
    public var generation: Int64

    /// A stamp from its parts.
    public init(ver: String?, generation: Int64) {
        self.ver = ver
        self.generation = generation
    }
}

/// Where `RosterSession` keeps an account's roster between runs (the tools' SQLite cache). Each
/// write names the copy it was made against, so a copy fetched before another process's change
/// never overwrites what that process stored after it. A store that cannot be read or written
/// answers nil (and says so itself): the roster then works from the network alone.
public protocol RosterCopyStore: AnyObject {
    /// The stored copy's stamp; nil when none is stored. Cheap.
    func stamp() -> RosterCopyStamp?
    /// The stored copy, ordered by JID; nil when none is stored.
    func load() -> (items: [RosterItem], stamp: RosterCopyStamp)?
    /// Stores a fresh copy only while the stored one is still of generation `seen` (0: none);
    /// the new generation, or nil when it was not stored.
    func replace(ver: String?, items: [RosterItem], ifGeneration seen: Int64) -> Int64?
    /// Patches the stored copy with pushes, only when it is the copy they follow (`base`); the
    /// patched copy's stamp, or nil when they were not applied.
    func apply(_ pushes: [RosterQuery], onto base: RosterCopyStamp) -> RosterCopyStamp?
}
