#if canImport(Glibc)
import Glibc
#endif
import XMPPStanzas
import XMPPStorage

/// `xmpp-roster __complete contacts`: the cached contacts of the account in scope, offline.
enum RosterCompletion {
    /// Contacts of `account` (default: the active account); nothing when no roster is cached.
    static func contacts(account: String?, paths: Paths) -> [String] {
        guard let text = account ?? (try? AccountStore(paths: paths).load())?.active,
              let jid = try? JID(text), jid.local != nil,
              access(paths.cacheDatabase, F_OK) == 0,
              let cache = try? Cache(paths: paths) else { return [] }
        return (try? RosterCache(cache: cache).contacts(account: jid.bare)) ?? []
    }
}
