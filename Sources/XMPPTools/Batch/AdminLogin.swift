import XMPPBatch
import XMPPConnection
import XMPPStanzas

/// The administrator of `batch --admin`: the account in use and its cached session, which each
/// of the engine's streams authenticates with (no password).
enum AdminLogin {
    static func session(_ context: AccountContext) throws -> AdminSession {
        let jid = try context.accountJID()
        guard let stored = try context.environment.sessions.load(jid) else {
            throw ToolFailure(.auth, "--admin needs the administrator's session: log in with 'xmpp-login ADMIN' (or pass -a ADMIN); no session for \(jid)")
        }
        let keys = try SessionKeys.keys(from: stored)
        let resource = context.common.resource
        return AdminSession(jid: jid) { connection in
            do {
                _ = try connection.authenticate(username: jid.local ?? "", credential: .keys(keys), usedSCRAMBefore: true)
                _ = try connection.bind(resource: resource)
            } catch let error as ConnectionError where error.isAuthRejection {
                throw ToolFailure(.auth, "the server rejected the cached session for \(jid) (password changed?): log in again with 'xmpp-login \(jid)'")
            }
        }
    }
}
