import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// `xmpp-login logout` for a FAST session: authenticate once more with the token, asking the
/// server to invalidate it (XEP-0484 §3.4), and delete the session file under the same lock.
enum TokenInvalidation {
    /// Nil when `jid` has no FAST session or its token is now invalid on the server (also when the
    /// server had already refused it); otherwise why the server could not be told.
    static func invalidate(context: AccountContext, jid: JID, stored: AccountSettings?) -> ToolFailure? {
        let env = context.environment
        guard case .fast? = try? env.sessions.loadCached(jid) else { return nil }
        do {
            let settings = try context.settings(for: jid, stored: stored)
            let connection = try context.open(domain: jid.domain, settings: settings, account: jid)
            defer { connection.close() }
            guard let error = try FASTSessionResume.resume(connection, env: env, jid: jid, resource: nil, invalidate: true, bind: false)
            else { return nil }
            if error.isAuthRejection { return nil }  // the token no longer works: nothing left to invalidate
            return ErrorMapping.failure(for: error)
        } catch {
            try? env.sessions.remove(jid)
            return ErrorMapping.failure(for: error)
        }
    }
}
