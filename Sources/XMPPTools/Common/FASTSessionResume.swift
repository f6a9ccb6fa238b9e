import Glibc
import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// Logging in with an account's FAST session: `FASTResume` (XMPPConnection) uses the token and
/// its rotation; this keeps it in the account's session file under the account's session lock,
/// and words what went wrong with the file.
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
                       warn: @escaping (String) -> Void = { _ in }) throws -> ConnectionError? {
        let unwritable = sessions.unwritableReason()
        // Ending the token there would leave a session file that no longer works.
        if let reason = unwritable, invalidate {
            throw ToolFailure(.failed, "cannot remove the session of \(jid), since \(reason); nothing was changed")
        }
        let store = SessionFileTokens(sessions: sessions, jid: jid, unwritableReason: unwritable, warn: warn)
        do {
            return try FASTResume.resume(connection, username: jid.local ?? "", store: store, resource: resource,
                                         invalidate: invalidate, bind: bind)
        } catch let error as FASTResumeError {
            throw failure(error, jid: jid)
        }
    }

    /// The tool's words for a session file whose token could not be used.
    static func failure(_ error: FASTResumeError, jid: JID) -> ToolFailure {
        switch error {
        case .sessionChanged: ToolFailure(.auth, "the session of \(jid) changed while connecting: run the command again")
        case .unusableToken: ToolFailure(.auth, "the session file of \(jid) is damaged: log in again with 'xmpp-login \(jid)'")
        }
    }
}

/// An account's FAST token in its session file, used under the account's session lock; where
/// the configuration directory cannot be written, without the lock, and a rotated token is
/// not kept (`warn` says so).
struct SessionFileTokens: FASTTokenStore {
    let sessions: SessionStore
    let jid: JID
    let unwritableReason: String?
    let warn: (String) -> Void

    func withTokenInUse<T>(_ body: () throws -> T) throws -> T {
        if unwritableReason != nil { return try body() }
        return try sessions.withSessionLock(jid, body)
    }

    func tryTokenInUse() throws -> FASTTokenHold? {
        if unwritableReason != nil { return NoLock() }
        return try sessions.sessionLockIfFree(jid)
    }

    /// Where no lock can be taken: a hold on nothing.
    private final class NoLock: FASTTokenHold {
        func release() {}
    }

    func current() throws -> FASTTokenState? {
        guard case .fast(let session)? = try sessions.loadCached(jid) else { return nil }
        return FASTTokenState(mechanism: session.mechanism, token: session.token, expiry: session.expiry,
                              userAgentID: session.userAgentID, previousToken: session.previousToken)
    }

    func keep(_ rotated: FASTTokenState) throws {
        if let reason = unwritableReason {
            warn("warning: the FAST token the server rotated \(jid)'s session to is not kept, since \(reason); "
                 + "the session file's token stays in use while the server accepts it")
            return
        }
        guard case .fast(var session)? = try sessions.loadCached(jid) else { return }
        session.mechanism = rotated.mechanism
        session.token = rotated.token
        session.expiry = rotated.expiry
        session.previousToken = rotated.previousToken
        session.rotated = Int(time(nil))
        try sessions.save(session)
    }

    func discard() throws { try sessions.remove(jid) }
}

/// The session lock as a token store's hold.
extension FileLock: FASTTokenHold {}
