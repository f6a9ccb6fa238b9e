import XMPPBatch
import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// The administrator of `batch --admin`: the account in use and its cached session, whatever its
/// kind, which each of the engine's streams authenticates with (no password typed).
enum AdminLogin {
    static func session(_ context: AccountContext) throws -> AdminSession {
        let jid = try context.accountJID()
        let env = context.environment
        let resource = context.common.resource
        let rejected = ToolFailure(.auth, "the server rejected the cached session for \(jid) (password changed or token revoked?): "
                                   + "log in again with 'xmpp-login \(jid)'")
        switch try env.sessions.loadCached(jid) {
        case nil:
            throw ToolFailure(.auth, "--admin needs the administrator's session: log in with 'xmpp-login ADMIN' (or pass -a ADMIN); no session for \(jid)")
        case .fast?:
            // Each stream takes its turn with the token under the account's lock and stores the rotated one.
            let sessions = env.sessions
            return AdminSession(jid: jid) { connection in
                if let error = try FASTSessionResume.resume(connection, sessions: sessions, jid: jid, resource: resource) {
                    if error.isAuthRejection { throw rejected }
                    throw error
                }
            }
        case .scramKeys(let stored)?:
            let credential = try RunCredential.resolve(jid: jid, passwordForRun: nil, session: stored, timeout: .seconds(context.common.timeout))
            return AdminSession(jid: jid) { connection in
                do {
                    _ = try connection.logIn(SessionLogIn(username: jid.local ?? "", credential: credential.login,
                                                          usedSCRAMBefore: true, resource: resource).request)
                } catch let error as ConnectionError where error.isAuthRejection {
                    throw credential.rejection(error, jid: jid) ?? rejected
                }
            }
        }
    }
}
