#if canImport(Glibc)
import Glibc
#endif
import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// Authenticating with an account's FAST token (XEP-0484): read the token, use it and store the
/// one the server rotates it to, all under the account's session lock. Two tools of one account
/// at once therefore take turns for that one round trip, and the second always reads the token
/// the first was given, so token rotation never locks either of them out.
enum FASTSessionResume {
    /// Logs in on `connection` with `jid`'s FAST session; the connection error, if any (a
    /// missing or damaged session throws). `invalidate` ends the token on the server (log-out)
    /// and deletes the session file before the lock is released, whatever the server said.
    static func resume(_ connection: Connection, env: ToolEnvironment, jid: JID, resource: String?,
                       invalidate: Bool = false, bind: Bool = true) throws -> ConnectionError? {
        try resume(connection, sessions: env.sessions, jid: jid, resource: resource, invalidate: invalidate, bind: bind,
                   warn: env.warn)
    }

    /// The same with the session store alone, for streams opened off the tool's own thread
    /// (batch --admin's engine). Where the configuration directory cannot be written (a
    /// read-only home or mount), the session is used without its lock, which nobody could
    /// take there, and a token the server rotates to is not kept: `warn` says so and why, and
    /// the session file's token stays in use for as long as the server accepts it (Prosody 13
    /// keeps a replaced token valid until its successor is used, which here it never is).
    static func resume(_ connection: Connection, sessions: SessionStore, jid: JID, resource: String?,
                       invalidate: Bool = false, bind: Bool = true,
                       warn: (String) -> Void = { _ in }) throws -> ConnectionError? {
        if let reason = sessions.unwritableReason() {
            // Ending the token there would leave a session file that no longer works.
            if invalidate {
                throw ToolFailure(.failed, "cannot remove the session of \(jid), since \(reason); nothing was changed")
            }
            return try authenticate(connection, sessions: sessions, jid: jid, resource: resource, invalidate: invalidate,
                                    bind: bind) { _ in
                warn("warning: the FAST token the server rotated \(jid)'s session to is not kept, since \(reason); "
                     + "the session file's token stays in use while the server accepts it")
            }
        }
        return try sessions.withSessionLock(jid) { () throws -> ConnectionError? in
            try authenticate(connection, sessions: sessions, jid: jid, resource: resource, invalidate: invalidate,
                             bind: bind) { rotated in try sessions.save(rotated) }
        }
    }

    /// Reads the session, logs in with its token and hands a rotated session to `store`.
    private static func authenticate(_ connection: Connection, sessions: SessionStore, jid: JID, resource: String?,
                                     invalidate: Bool, bind: Bool,
                                     store: (FASTSession) throws -> Void) throws -> ConnectionError? {
        guard case .fast(let session)? = try sessions.loadCached(jid) else {
            throw ToolFailure(.auth, "the session of \(jid) changed while connecting: run the command again")
        }
        guard let mechanism = FASTMechanism(name: session.mechanism), !session.token.isEmpty else {
            throw ToolFailure(.auth, "the session file of \(jid) is damaged: log in again with 'xmpp-login \(jid)'")
        }
        if invalidate {
            defer { try? sessions.remove(jid) }
            do throws(ConnectionError) {
                _ = try connection.logIn(LoginRequest(
                    username: jid.local ?? "", credential: .token(mechanism, secret: session.token), usedSCRAMBefore: true,
                    userAgentID: session.userAgentID, invalidateToken: true, bind: false))
                return nil
            } catch {
                return error
            }
        }
        let outcome: LoginOutcome
        do throws(ConnectionError) {
            outcome = try connection.logIn(LoginRequest(
                username: jid.local ?? "", credential: .token(mechanism, secret: session.token), usedSCRAMBefore: true,
                resource: resource, userAgentID: session.userAgentID, bind: bind, expectedMechanism: session.mechanism))
        } catch {
            return error
        }
        if let issued = outcome.token {
            var rotated = session
            rotated.mechanism = issued.mechanism.name
            rotated.token = issued.token.secret
            rotated.expiry = issued.token.expiry
            rotated.rotated = Int(time(nil))
            if issued.token.secret != session.token { rotated.previousToken = session.token }
            try store(rotated)
        }
        return nil
    }
}
