/// An account's session policy around a log-in taken a step at a time on a poll loop (the
/// batch's `--admin` streams, `PolledSetup`): the policy gives the request the steps send, and
/// records what the log-in taught once it is over. The blocking drivers apply the same policy
/// around `Connection.logIn` (`SessionLogIn.run`, `FASTResume.resume`). One owner; not Sendable.
public protocol LoginPolicy: AnyObject {
    /// The request for a stream's log-in, or nil while the stream must wait its turn (the
    /// account's FAST token is another stream's or program's to use); a stored session that
    /// cannot be used is thrown.
    func begin() throws -> LoginRequest?
    /// The log-in that `begin` started succeeded: what it teaches is recorded (the token the
    /// server rotated to, SCRAM memory) and the turn ends.
    func succeeded(_ outcome: LoginOutcome) throws
    /// The log-in that `begin` started failed or was given up: the turn ends, nothing is recorded.
    func failed()
}

/// `SessionLogIn` (a password or cached SCRAM keys) as a policy: any number of streams log in
/// at once; `memory`, if any, hears what each log-in teaches.
public final class SessionLoginPolicy: LoginPolicy {
    private let login: SessionLogIn
    private let memory: LoginMemory?

    /// A policy for `login`, recording into `memory` (nil: nothing is recorded).
    public init(_ login: SessionLogIn, memory: LoginMemory? = nil) {
        self.login = login
        self.memory = memory
    }

    public func begin() -> LoginRequest? { login.request }

    public func succeeded(_ outcome: LoginOutcome) throws {
        if let memory { try login.remember(outcome, in: memory) }
    }

    public func failed() {}
}

/// An account's FAST token (XEP-0484) as a policy: one stream at a time reads the token, logs
/// in with it and keeps the token the server rotates it to, as the token's only user
/// (`FASTTokenStore.tryTokenInUse`); the other streams wait their turn without blocking the loop.
public final class FASTLoginPolicy: LoginPolicy {
    private let username: String
    private let store: FASTTokenStore
    private let resource: String?
    /// The stream whose turn it is: the token it logs in with and the store's hold.
    private var turn: (state: FASTTokenState, hold: FASTTokenHold)?

    /// A policy logging in as `username` with `store`'s token, binding `resource`.
    public init(username: String, store: FASTTokenStore, resource: String?) {
        self.username = username
        self.store = store
        self.resource = resource
    }

    public func begin() throws -> LoginRequest? {
        guard turn == nil, let hold = try store.tryTokenInUse() else { return nil }
        do {
            guard let state = try store.current() else { throw FASTResumeError.sessionChanged }
            let request = try FASTResume.request(state, username: username, resource: resource)
            turn = (state, hold)
            return request
        } catch {
            hold.release()
            throw error
        }
    }

    public func succeeded(_ outcome: LoginOutcome) throws {
        guard let turn else { return }
        self.turn = nil
        defer { turn.hold.release() }
        if let issued = outcome.token { try store.keep(FASTResume.rotated(turn.state, to: issued)) }
    }

    public func failed() {
        turn?.hold.release()
        turn = nil
    }
}
