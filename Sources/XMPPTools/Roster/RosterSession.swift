import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

extension RosterSession {
    /// Connects with the cached session, over the account's copy in the roster cache (a cache
    /// that cannot be opened is a warning).
    static func open(_ context: AccountContext) throws -> RosterSession {
        let (connection, account) = try context.connectWithSession()
        let environment = context.environment
        return RosterSession(connection: connection, account: account,
                             store: openCache(environment).map { CachedRosterCopy(cache: $0, account: account, environment: environment) },
                             warn: environment.warn)
    }

    /// The roster cache, or nil with a warning.
    static func openCache(_ environment: ToolEnvironment) -> RosterCache? {
        do {
            return RosterCache(cache: try Cache(paths: environment.paths, areas: [.roster]) { environment.warn($0) })
        } catch {
            environment.warn("roster cache unavailable: \(error)")
            return nil
        }
    }

    /// The account's cached roster, without the network (`--cached`); not found when there is none.
    static func cachedItems(_ context: AccountContext) throws -> [RosterItem] {
        let account = try context.accountJID()
        guard let cache = openCache(context.environment), let roster = try cache.load(account: account) else {
            throw ToolFailure(.notFound, "no cached roster for \(account): run 'xmpp-roster list' once while online")
        }
        return roster.items
    }
}

/// An account's copy in the tools' roster cache, as `RosterSession` keeps it: a cache that
/// cannot be read or written is a warning, and the session goes on from the network alone.
final class CachedRosterCopy: RosterCopyStore {
    let cache: RosterCache
    let account: JID
    let environment: ToolEnvironment

    init(cache: RosterCache, account: JID, environment: ToolEnvironment) {
        self.cache = cache
        self.account = account
        self.environment = environment
    }

    func stamp() -> RosterCopyStamp? {
        read { try cache.stamp(account: account).map(Self.copyStamp) }
    }

    func load() -> (items: [RosterItem], stamp: RosterCopyStamp)? {
        read { try cache.load(account: account).map { ($0.items, Self.copyStamp($0.stamp)) } }
    }

    func replace(ver: String?, items: [RosterItem], ifGeneration seen: Int64) -> Int64? {
        write { try cache.replace(account: account, ver: ver, items: items, now: environment.now, ifGeneration: seen) }
    }

    func apply(_ pushes: [RosterQuery], onto base: RosterCopyStamp) -> RosterCopyStamp? {
        write {
            try cache.apply(account: account, pushes: pushes, onto: RosterCacheStamp(ver: base.ver, generation: base.generation),
                            now: environment.now).map(Self.copyStamp)
        }
    }

    private static func copyStamp(_ stamp: RosterCacheStamp) -> RosterCopyStamp {
        RosterCopyStamp(ver: stamp.ver, generation: stamp.generation)
    }

    private func read<T>(_ body: () throws -> T?) -> T? {
        do { return try body() } catch {
            environment.warn("cannot read the roster cache: \(error)")
            return nil
        }
    }

    private func write<T>(_ body: () throws -> T?) -> T? {
        do { return try body() } catch {
            environment.warn("cannot update the roster cache: \(error)")
            return nil
        }
    }
}
