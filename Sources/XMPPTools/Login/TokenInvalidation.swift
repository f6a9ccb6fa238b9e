import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// `xmpp-login logout` for a FAST session: authenticate once more with the token, asking the
/// server to invalidate it (XEP-0484 §3.4), and delete the session file under the same lock;
/// the token the last rotation replaced is invalidated the same way first.
enum TokenInvalidation {
    /// Nil when `jid` has no FAST session or its token is now invalid on the server (also when the
    /// server had already refused it); otherwise why the server could not be told.
    static func invalidate(context: AccountContext, jid: JID, stored: AccountSettings?) -> ToolFailure? {
        let env = context.environment
        guard case .fast(let session)? = try? env.sessions.loadCached(jid) else { return nil }
        // The token a rotation replaced first: Prosody 13 keeps it valid until the new one is used,
        // and invalidating the new one does not end it.
        var previousFailure: ToolFailure?
        if let previous = session.previousToken, previous != session.token {
            var old = session
            old.token = previous
            previousFailure = invalidate(old, context: context, stored: stored)
        }
        if let failure = invalidateCurrent(context: context, jid: jid, stored: stored) { return failure }
        return previousFailure
    }

    /// Ends the token the session file holds and deletes the file.
    private static func invalidateCurrent(context: AccountContext, jid: JID, stored: AccountSettings?) -> ToolFailure? {
        let env = context.environment
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

    /// Ends one token, `session`'s, on the server, leaving the session file alone: for a token
    /// the file no longer holds (the one a rotation replaced, which Prosody 13 keeps valid until
    /// the new one is used for a log-in). Nil when it is now invalid, also when it already was.
    static func invalidate(_ session: FASTSession, context: AccountContext, stored: AccountSettings?) -> ToolFailure? {
        let state = FASTTokenState(mechanism: session.mechanism, token: session.token, expiry: session.expiry,
                                   userAgentID: session.userAgentID)
        guard state.isUsable else { return nil }  // not a token this client can use: nothing it could end
        do {
            let settings = try context.settings(for: session.jid, stored: stored)
            let connection = try context.open(domain: session.jid.domain, settings: settings, account: session.jid)
            defer { connection.close() }
            guard let error = try FASTResume.end(state, on: connection, username: session.jid.local ?? "") else { return nil }
            return error.isAuthRejection ? nil : ErrorMapping.failure(for: error)
        } catch {
            return ErrorMapping.failure(for: error)
        }
    }
}
