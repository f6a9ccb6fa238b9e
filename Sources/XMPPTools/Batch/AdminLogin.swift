import XMPPBatch
import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// The administrator of `batch --admin`: the account in use and its cached session, whatever its
/// kind, which each of the engine's streams logs in with (no password typed), and the words for
/// a session the server refuses.
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
            // The streams take turns with the token under the account's lock; each keeps the rotated one.
            let sessions = env.sessions
            return AdminSession(jid: jid, policy: {
                let store = SessionFileTokens(sessions: sessions, jid: jid, unwritableReason: sessions.unwritableReason(),
                                              warn: { _ in })
                return FASTLoginPolicy(username: jid.local ?? "", store: store, resource: resource)
            }, failure: { error in
                if let error = error as? FASTResumeError { return FASTSessionResume.failure(error, jid: jid) }
                if let error = error as? ConnectionError, error.isAuthRejection { return rejected }
                return error
            })
        case .scramKeys(let stored)?:
            let credential = try RunCredential.resolve(jid: jid, passwordForRun: nil, session: stored, timeout: .seconds(context.common.timeout))
            let login = SessionLogIn(username: jid.local ?? "", credential: credential.login, usedSCRAMBefore: true, resource: resource)
            return AdminSession(jid: jid, policy: { SessionLoginPolicy(login) }, failure: { error in
                guard let error = error as? ConnectionError, error.isAuthRejection else { return error }
                return credential.rejection(error, jid: jid) ?? rejected
            })
        }
    }
}
