import Glibc
import Arguments
import XMPPStanzas
import XMPPStorage

/// `xmpp-vcard __complete vcards [--account JID]`: the JIDs whose cards the account has cached.
enum VCardCompletion {
    static func answer(account name: String?, paths: Paths) {
        // Never create a cache just to complete a word.
        guard access(paths.cacheDatabase, R_OK) == 0 else { return }
        guard let name, let account = try? JID(name), let cache = try? Cache(paths: paths, areas: [.vcard]),
              let jids = try? VCardCache(cache: cache).jids(account: account) else { return }
        for jid in jids where jid != account.bare { Output.line(jid.description) }
    }
}
