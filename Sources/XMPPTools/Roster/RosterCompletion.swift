import Glibc
import Arguments
import XMPPStanzas
import XMPPStorage

/// `xmpp-roster __complete contacts` and `__complete groups`: the cached contacts and group
/// names of the account in scope, offline.
enum RosterCompletion {
    /// Where `--group` and `group JID GROUP…` take a group name.
    static let groups = CompletionKind.custom("groups")

    /// Contacts of `account` (`Completion.account`: the one the command would use); nothing
    /// when no roster is cached.
    static func contacts(account: String?, paths: Paths) -> [String] {
        guard let (jid, cache) = cachedRoster(account: account, paths: paths) else { return [] }
        return (try? RosterCache(cache: cache).contacts(account: jid)) ?? []
    }

    /// The group names of `account`'s cached roster.
    static func groupNames(account: String?, paths: Paths) -> [String] {
        guard let (jid, cache) = cachedRoster(account: account, paths: paths) else { return [] }
        return (try? RosterCache(cache: cache).groups(account: jid)) ?? []
    }

    private static func cachedRoster(account: String?, paths: Paths) -> (JID, Cache)? {
        guard let text = account, let jid = try? JID(text), jid.local != nil,
              access(paths.cacheDatabase, F_OK) == 0,
              let cache = try? Cache(paths: paths, areas: [.roster]) else { return nil }
        return (jid.bare, cache)
    }
}
