import XMLTree
import XMPPConnection
import XMPPStanzas

/// One account's work over its own log-in, as a conversation: what it sends once bound, and
/// what each stanza that arrives means. `AccountSessions` runs many at once.
protocol AccountConversation: AnyObject {
    /// What to do once the stream is bound as `account`: what to send first, or the work done.
    func start(on link: PolledConnection, account: JID) throws -> ConversationStep
    /// A stanza that arrived on the account's stream.
    func receive(_ element: XMLElement, on link: PolledConnection, account: JID) throws -> ConversationStep
    /// The time a `.later` step asked for has come.
    func resume(on link: PolledConnection, account: JID) throws -> ConversationStep
    /// The account's stream ended or broke with `failure`: the step it means for the work, or
    /// nil for the failure to end the attempt (as a network failure, a refusal, or the run's end).
    func streamEnded(_ failure: ConnectionError, on link: PolledConnection, account: JID) throws -> ConversationStep?
}

extension AccountConversation {
    func resume(on link: PolledConnection, account: JID) throws -> ConversationStep { .waiting }
    func streamEnded(_ failure: ConnectionError, on link: PolledConnection, account: JID) throws -> ConversationStep? { nil }
}

/// What a conversation does after a stanza.
enum ConversationStep {
    /// Waits for more.
    case waiting
    /// Sends these, then waits (not sent once the run is asked to stop: the work is redone by
    /// `--resume`).
    case send([XMLElement])
    /// Sends nothing until then, then `resume`s (a server's race that a moment later is gone).
    case later(ContinuousClock.Instant)
    /// The account's work is done; its stream is closed.
    case finished
}

/// Many accounts' work, each over its own log-in, `jobs` accounts at a time on one poll()
/// loop, like the request engine (`BatchEngine`): the log-in (`PolledSetup`) and the
/// conversation both move only when their socket has something (or a conversation's `.later`
/// time comes). A network failure closes the
/// account's stream and starts its work again after a back-off (conversations read before they
/// write, so a redo sends only what did not take effect); a refusal ends that account's work;
/// any other error ends the run. Once asked to stop, no account starts and none sends more;
/// what is in flight is awaited for `stopGrace`.
final class AccountSessions<Conversation: AccountConversation> {
    /// How an account's work ended.
    enum End {
        case done(Conversation)
        /// The server refused it (`LoginPhase.isRowFailure`): the log-in (`duringLogIn`; then
        /// `beforeChallenge` as in `Connection.refusedBeforeChallenge`), or the work.
        case refused(ConnectionError, duringLogIn: Bool, beforeChallenge: Bool)
        /// Network failures `attempts` times in a row.
        case gaveUp(ConnectionError, attempts: Int)
    }

    private final class Session {
        let job: Int
        let conversation: Conversation
        var login: PolledSetup?
        var link: PolledConnection?
        var deadline: ContinuousClock.Instant
        /// When a conversation waiting (`.later`) resumes.
        var wake: ContinuousClock.Instant?
        init(job: Int, conversation: Conversation, login: PolledSetup) {
            self.job = job
            self.conversation = conversation
            self.login = login
            deadline = login.deadline
        }
    }

    private let settings: EngineSettings
    private let stopGrace: Duration
    private let logIn: (_ job: Int) throws(ConnectionError) -> PolledSetup
    private let conversation: (_ job: Int) -> Conversation
    /// An account's stream is bound: its endpoint answered.
    private let bound: (PolledConnection) -> Void

    /// `logIn` starts job `job`'s log-in; `conversation` makes its work (anew for each attempt).
    init(settings: EngineSettings, stopGrace: Duration, logIn: @escaping (_ job: Int) throws(ConnectionError) -> PolledSetup,
         conversation: @escaping (_ job: Int) -> Conversation, bound: @escaping (PolledConnection) -> Void = { _ in }) {
        self.settings = settings
        self.stopGrace = stopGrace
        self.logIn = logIn
        self.conversation = conversation
        self.bound = bound
    }

    // The state of a run.
    private var queue: [(job: Int, notBefore: ContinuousClock.Instant)] = []
    private var failures: [Int: Int] = [:]
    private var active: [Session] = []
    /// A session was closed by a stop with its work not done.
    private var cut = false
    private var ended: (_ job: Int, End) throws -> Bool = { _, _ in false }

    /// Runs jobs `0..<count`, calling `ended` as each one ends (a job interrupted by a stop has
    /// no end: it stays to do). `ended` returns true for a job to run again at once, with a new
    /// log-in and conversation (the job's owner changed what they use), without counting a failure.
    func run(count: Int, ended: @escaping (_ job: Int, End) throws -> Bool) throws -> BatchEnd {
        queue = Array(0..<count).reversed().map { (job: $0, notBefore: ContinuousClock.now) }
        failures = [:]
        active = []
        cut = false
        self.ended = ended
        defer {
            for session in active { close(session) }
            active = []
        }
        var stopSeen: ContinuousClock.Instant?
        while true {
            let now = ContinuousClock.now
            if stopSeen == nil && settings.shouldStop() {
                stopSeen = now
                // Log-ins under way have sent nothing of the work: give them up at once.
                for session in active where session.link == nil { close(session) }
                if active.contains(where: { $0.link == nil }) { cut = true }
                active.removeAll { $0.link == nil }
            }
            if let stopSeen, now - stopSeen >= stopGrace || active.isEmpty {
                return queue.isEmpty && active.isEmpty && !cut ? .completed : .interrupted
            }
            if stopSeen == nil { try startSessions(now) }
            if active.isEmpty && queue.isEmpty { return .completed }
            let stopping = stopSeen != nil
            try wait(on: active, wake: nextWake(now)) { session in
                try guarded(session) { try self.advance(session, stopping: stopping) }
            }
            let after = ContinuousClock.now
            for session in active {
                if let wake = session.wake, wake <= after {
                    session.wake = nil
                    try guarded(session) { try self.resume(session, stopping: stopping) }
                } else if session.deadline <= after, session.wake == nil {
                    try guarded(session) { try self.expire(session) }
                }
            }
        }
    }

    /// Starts log-ins for queued jobs whose back-off is over, up to `jobs` at once.
    private func startSessions(_ now: ContinuousClock.Instant) throws {
        while active.count < settings.jobs, let at = queue.lastIndex(where: { $0.notBefore <= now }) {
            let job = queue.remove(at: at).job
            let login: PolledSetup
            do { login = try logIn(job) } catch {
                guard error.isTransient else { throw error }
                try failed(job, error)
                continue
            }
            active.append(Session(job: job, conversation: conversation(job), login: login))
        }
    }

    /// A network failure of `job`: again after a back-off, or given up after `maxAttempts`.
    private func failed(_ job: Int, _ error: ConnectionError) throws {
        let count = (failures[job] ?? 0) + 1
        failures[job] = count
        if count >= settings.maxAttempts {
            try end(job, .gaveUp(error, attempts: count))
        } else {
            queue.insert((job, .now + settings.backoff.delay(failures: count)), at: 0)
        }
    }

    /// Runs `body` for a session: its end is recorded, and its failures end its attempt as
    /// their kind says (transient: again later; a refusal: the job's end; others end the run).
    private func guarded(_ session: Session, _ body: () throws -> Progress) throws {
        let progress: Progress
        do {
            progress = try body()
        } catch let error as ConnectionError {
            guard error.isTransient || LoginPhase.isRowFailure(error) else { throw error }
            active.removeAll { $0 === session }
            let duringLogIn = session.link == nil
            let beforeChallenge = session.login?.refusedBeforeChallenge ?? false
            close(session)
            if error.isTransient { try failed(session.job, error) } else {
                try end(session.job, .refused(error, duringLogIn: duringLogIn, beforeChallenge: beforeChallenge))
            }
            return
        }
        switch progress {
        case .underWay: return
        case .finished:
            active.removeAll { $0 === session }
            try end(session.job, .done(session.conversation))
        case .cut:
            active.removeAll { $0 === session }
            cut = true
        }
    }

    /// Tells the owner how `job` ended; runs it again at once if the owner says so.
    private func end(_ job: Int, _ how: End) throws {
        if try ended(job, how) { queue.append((job, .now)) }
    }

    /// A session whose deadline passed: its log-in tries the next endpoint, or it failed.
    private func expire(_ session: Session) throws -> Progress {
        guard let login = session.login else { throw ConnectionError.timedOut("waiting for the server") }
        try login.expire()
        session.deadline = login.deadline
        return .underWay
    }

    /// Where a session stands after a step.
    private enum Progress {
        case underWay, finished
        /// Stopped (asked to) before sending more: the work stays to do.
        case cut
    }

    /// Moves a session on: its log-in, else its conversation.
    private func advance(_ session: Session, stopping: Bool) throws -> Progress {
        if let login = session.login {
            guard let link = try login.advance() else {
                session.deadline = login.deadline
                return .underWay
            }
            session.login = nil
            session.link = link
            bound(link)
            guard let account = link.connection.boundJID else { throw ConnectionError.protocolViolation("the log-in bound no JID") }
            session.deadline = .now + settings.timeout
            return try carry(session.conversation.start(on: link, account: account), session, on: link, stopping: stopping) ?? .underWay
        }
        guard let link = session.link, let account = link.connection.boundJID else { return .cut }
        var elements: [XMLElement] = []
        var failure: ConnectionError?
        do { try link.readAvailable(into: &elements) } catch { failure = error }
        if !elements.isEmpty { session.deadline = .now + settings.timeout }
        for element in elements {
            if let end = try carry(session.conversation.receive(element, on: link, account: account), session, on: link, stopping: stopping) {
                return end
            }
        }
        if let failure {
            guard let step = try session.conversation.streamEnded(failure, on: link, account: account) else { throw failure }
            return try carry(step, session, on: link, stopping: stopping) ?? .underWay
        }
        return .underWay
    }

    /// A conversation's `.later` time has come.
    private func resume(_ session: Session, stopping: Bool) throws -> Progress {
        guard let link = session.link, let account = link.connection.boundJID else { return .cut }
        session.deadline = .now + settings.timeout
        return try carry(session.conversation.resume(on: link, account: account), session, on: link, stopping: stopping) ?? .underWay
    }

    /// Carries out a conversation's step; nil while the session goes on.
    private func carry(_ step: ConversationStep, _ session: Session, on link: PolledConnection, stopping: Bool) throws -> Progress? {
        switch step {
        case .waiting: return nil
        case .later(let wake):
            if stopping {
                close(session)
                return .cut
            }
            session.wake = wake
            return nil
        case .finished:
            close(session)
            return .finished
        case .send(let more):
            if stopping {
                close(session)
                return .cut
            }
            session.deadline = .now + settings.timeout
            try link.send(more)
            return nil
        }
    }

    private func close(_ session: Session) {
        session.login?.close()
        session.link?.close()
        session.login = nil
        session.link = nil
    }

    /// One poll() over the sessions' sockets (a log-in connecting waits to write), until `wake`;
    /// `body` runs for each session with something.
    private func wait(on sessions: [Session], wake: ContinuousClock.Instant, _ body: (Session) throws -> Void) throws {
        let watches = sessions.map { session in
            if let login = session.login { return StreamPoller.Watch(login.fileDescriptor, write: login.wantsWrite) }
            return StreamPoller.Watch(session.link?.fileDescriptor ?? -1)
        }
        for index in StreamPoller.ready(watches, until: wake) { try body(sessions[index]) }
    }

    /// When the loop must look again: a session's deadline, a queued job's back-off, at most
    /// 250 ms (so a stop is seen).
    private func nextWake(_ now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        var wake = now + .milliseconds(250)
        for session in active { wake = min(wake, session.wake ?? session.deadline) }
        for entry in queue where entry.notBefore > now { wake = min(wake, entry.notBefore) }
        return wake
    }
}
