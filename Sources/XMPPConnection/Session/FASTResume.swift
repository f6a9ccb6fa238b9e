import XMPPStanzas

/// Why a stored FAST session could not be used; the caller words it (log in again, run again).
public enum FASTResumeError: Error, Equatable {
    /// The store holds no token session any more (replaced while connecting).
    case sessionChanged
    /// The stored token is empty or names a mechanism this client does not know.
    case unusableToken
}

/// Authenticating with an account's FAST token (XEP-0484): the token is read, used and the one
/// the server rotates it to kept, all as the token's only user (`FASTTokenStore.withTokenInUse`),
/// so the second of two tools of one account always reads the token the first was given.
public enum FASTResume {
    /// Logs in on `connection` with the stored token; the server's refusal, if any, is returned
    /// (a missing or damaged token throws `FASTResumeError`). `invalidate` ends the token on the
    /// server (log-out, XEP-0484 §3.4) and discards the stored session whatever the server said.
    public static func resume(_ connection: Connection, username: String, store: FASTTokenStore, resource: String?,
                              invalidate: Bool = false, bind: Bool = true) throws -> ConnectionError? {
        try store.withTokenInUse { () throws -> ConnectionError? in
            guard let state = try store.current() else { throw FASTResumeError.sessionChanged }
            if invalidate {
                let mechanism = try mechanism(of: state)
                defer { try? store.discard() }
                return end(state, mechanism: mechanism, on: connection, username: username)
            }
            var request = try request(state, username: username, resource: resource)
            request.bind = bind
            let outcome: LoginOutcome
            do throws(ConnectionError) {
                outcome = try connection.logIn(request)
            } catch {
                return error
            }
            if let issued = outcome.token { try store.keep(rotated(state, to: issued)) }
            return nil
        }
    }

    /// Opens streams with `open` and logs in with the stored token, returning the authenticated
    /// stream; the server's refusal is thrown. A token means the server offered SASL2 with FAST:
    /// `<starttls/>` rides with the first header, `<authenticate/>` with the one after TLS, and
    /// features that changed mean one more stream the unpipelined way (`StreamRetry`), whose
    /// answer is the one that counts.
    public static func logIn(username: String, store: FASTTokenStore, resource: String?,
                             open: (_ pipelined: Bool) throws -> Connection) throws -> Connection {
        try StreamRetry.run(pipelined: true) { pipelined in
            let connection = try open(pipelined)
            let refusal: ConnectionError?
            do { refusal = try resume(connection, username: username, store: store, resource: resource) } catch {
                connection.close()
                throw error
            }
            if let refusal {
                connection.close()
                throw refusal
            }
            return connection
        }
    }

    /// Ends `state`'s token on the server without binding, leaving any store alone: for a token
    /// the session no longer holds (the one a rotation replaced). The server's refusal, if any.
    public static func end(_ state: FASTTokenState, on connection: Connection, username: String) throws(FASTResumeError) -> ConnectionError? {
        end(state, mechanism: try mechanism(of: state), on: connection, username: username)
    }

    /// The log-in with `state`'s token, pipelined for its mechanism (a stream that can, sends
    /// `<authenticate/>` with the header after TLS), binding `resource`.
    static func request(_ state: FASTTokenState, username: String, resource: String?) throws(FASTResumeError) -> LoginRequest {
        LoginRequest(username: username, credential: .token(try mechanism(of: state), secret: state.token), usedSCRAMBefore: true,
                     resource: resource, userAgentID: state.userAgentID, expectedMechanism: state.mechanism)
    }

    /// The session after the server issued `issued`: the replaced token kept as the previous one.
    static func rotated(_ state: FASTTokenState, to issued: (mechanism: FASTMechanism, token: FASTToken)) -> FASTTokenState {
        var rotated = state
        rotated.mechanism = issued.mechanism.name
        rotated.token = issued.token.secret
        rotated.expiry = issued.token.expiry
        if issued.token.secret != state.token { rotated.previousToken = state.token }
        return rotated
    }

    static func mechanism(of state: FASTTokenState) throws(FASTResumeError) -> FASTMechanism {
        guard let mechanism = FASTMechanism(name: state.mechanism), !state.token.isEmpty else { throw .unusableToken }
        return mechanism
    }

    private static func end(_ state: FASTTokenState, mechanism: FASTMechanism, on connection: Connection,
                            username: String) -> ConnectionError? {
        do throws(ConnectionError) {
            _ = try connection.logIn(LoginRequest(
                username: username, credential: .token(mechanism, secret: state.token), usedSCRAMBefore: true,
                userAgentID: state.userAgentID, invalidateToken: true, bind: false))
            return nil
        } catch {
            return error
        }
    }
}

extension FASTTokenState {
    /// The token is non-empty and its mechanism one this client knows.
    public var isUsable: Bool { (try? FASTResume.mechanism(of: self)) != nil }
}
