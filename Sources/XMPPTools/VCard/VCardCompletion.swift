#if canImport(Glibc)
import Glibc
#endif
import Arguments
import XMPPStanzas
import XMPPStorage

/// `xmpp-vcard __complete vcards [--account JID]`: the JIDs whose cards the account has cached.
enum VCardCompletion {
    static func answer(_ request: CompletionRequest, paths: Paths, variables: [String: String]) {
        // Never create a cache just to complete a word.
        guard access(paths.cacheDatabase, R_OK) == 0 else { return }
        let name = request.account ?? variables["XMPP_ACCOUNT"] ?? (try? AccountStore(paths: paths).load().active) ?? nil
        guard let name, let account = try? JID(name), let cache = try? Cache(paths: paths, areas: [.vcard]),
              let jids = try? VCardCache(cache: cache).jids(account: account) else { return }
        for jid in jids where jid != account.bare { Output.line(jid.description) }
    }
}
