import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// Row work that needs the row's own log-in: `--on-exists update`, checking whether an
/// unanswered registration created the account, profile columns, `--delete` and `--passwd`.
/// Each row gets its own authenticated stream; the log-ins run `jobs` at a time on one poll
/// loop (`AccountSessions`), and network failures back off and retry like the registration
/// engine's. Once a row's stream is bound, its work (the profile, the password change, the
/// cancellation) is a conversation on the same loop: the services' requests go out and their
/// replies are taken as they arrive (`ReplayChannel`), so no row waits for another's server.
final class LoginPhase {
    /// What to do with a row.
    enum Task: Sendable {
        /// A registration went unanswered and the retry met `conflict`: did ours create it?
        case verifyCreated
        /// An add-user went unanswered: did it create the account? If the row's password does
        /// not log in, the row is to be sent again (`toResend`), not recorded.
        case checkBeforeResend
        /// `--on-exists update`.
        case update
        /// `--delete`.
        case delete
        /// `--passwd`.
        case passwd
        /// A row created with profile columns still to set (`registered`).
        case profile
    }

    private let settings: EngineSettings
    private let recorder: BatchRecorder
    private let avatars: ResizedAvatars
    private let logIn: (_ username: String, _ password: String) throws(ConnectionError) -> PolledSetup
    private let bound: (PolledConnection) -> Void
    /// The rows and their tasks, with what this run learned of them (uncertainty, new passwords).
    private var work: [(item: WorkItem, task: Task)] = []
    /// `--passwd` rows whose password was refused: they log in with their new one.
    private var withNewPassword: Set<Int> = []

    /// The `checkBeforeResend` rows whose password did not log in: to be sent again.
    private(set) var toResend: [WorkItem] = []

    /// `logIn` starts a log-in as a row's account; `bound` hears of each stream bound.
    init(settings: EngineSettings, recorder: BatchRecorder, avatars: ResizedAvatars,
         logIn: @escaping (_ username: String, _ password: String) throws(ConnectionError) -> PolledSetup,
         bound: @escaping (PolledConnection) -> Void = { _ in }) {
        self.settings = settings
        self.recorder = recorder
        self.avatars = avatars
        self.logIn = logIn
        self.bound = bound
    }

    /// Runs every task, `settings.jobs` log-ins at a time; stops taking rows when interrupted or
    /// when one fails in a way that ends the run.
    func run(_ work: [(item: WorkItem, task: Task)]) throws -> BatchEnd {
        self.work = work
        withNewPassword = []
        var noPassword: [RowOutcome] = []
        var runnable: [Int] = []
        for (index, entry) in work.enumerated() {
            if entry.item.password == nil {
                noPassword.append(outcome(entry.item, .failed, error: "no password to log in with (the journal has none for this row)"))
            } else {
                runnable.append(index)
            }
        }
        if !noPassword.isEmpty { try recorder.commit(noPassword) }
        let sessions = AccountSessions<RowWork>(
            settings: settings, stopGrace: RosterPhase.stopGrace,
            logIn: { job throws(ConnectionError) in try self.startLogIn(runnable[job]) },
            conversation: { job in RowWork(phase: self, index: runnable[job]) },
            bound: bound)
        return try sessions.run(count: runnable.count) { job, end in try self.ended(runnable[job], end) }
    }

    private func startLogIn(_ index: Int) throws(ConnectionError) -> PolledSetup {
        let item = work[index].item
        let password = withNewPassword.contains(index) ? item.newPassword : item.password
        return try logIn(item.row.jid.local ?? "", password ?? "")
    }

    /// How row `index`'s attempt ended; true to log in again at once (a `--passwd` row trying
    /// its new password).
    private func ended(_ index: Int, _ end: AccountSessions<RowWork>.End) throws -> Bool {
        let item = work[index].item
        switch end {
        case .done(let row):
            if let result = row.result { try recorder.commit([result]) }
        case .gaveUp(let error, let attempts):
            try recorder.commit([outcome(item, .failed, error: "gave up after \(attempts) attempts: \(error)", retryable: true)])
        case .refused(let error, let duringLogIn, let beforeChallenge):
            guard duringLogIn, case .authenticationFailed(let condition, _) = error else {
                try recorder.commit([outcome(work[index].item, .failed, error: error.description)])
                return false
            }
            return try refused(index, noSuchAccount: condition == "not-authorized" && beforeChallenge)
        }
        return false
    }

    /// The server refused row `index`'s password. `noSuchAccount`: it refused the SCRAM exchange
    /// before its first challenge, which Prosody and ejabberd do only for an account that does
    /// not exist (a wrong password fails after the challenge).
    private func refused(_ index: Int, noSuchAccount: Bool) throws -> Bool {
        var item = work[index].item
        let task = work[index].task
        let result: RowOutcome
        switch task {
        case .checkBeforeResend:
            // Any refusal sends it again, still uncertain: an account that exists with another
            // password then meets `conflict` and is checked as before.
            toResend.append(item)
            return false
        case .verifyCreated, .update:
            item.uncertain = false  // our password does not log in: no request of ours set it
            if task == .update || settings.onExists == .update {
                result = outcome(item, .failed, error: LoginPhase.notUpdated(item.source))
            } else {
                result = outcome(item, .exists, error: settings.onExists == .fail ? "the account already exists (--on-exists fail)" : nil)
            }
        case .profile:
            result = outcome(item, .created, error: "created, but its password no longer logs in, so the profile was not set",
                             profile: .pending(item.row.profile.names))
        case .delete:
            if item.uncertain {
                result = outcome(item, .deleted)  // our earlier, unanswered cancel went through
            } else if noSuchAccount {
                result = outcome(item, .deleted, note: "no such account")  // deleting is idempotent, like rm -f
            } else {
                result = outcome(item, .failed, error: "cannot log in: wrong password, or no such account")
            }
        case .passwd:
            if item.newPassword != nil, !withNewPassword.contains(index) {
                withNewPassword.insert(index)
                return true
            }
            item.uncertain = false
            result = outcome(item, .failed, error: "cannot log in with password or new_password (wrong password, or no such account)")
        }
        work[index].item = item
        try recorder.commit([result])
        return false
    }

    /// One row's work on its bound stream, as a conversation: its outcome.
    final class RowWork: AccountConversation {
        private unowned let phase: LoginPhase
        private let index: Int
        /// The services' requests and replies of the attempt under way.
        private var channel: ReplayChannel?
        /// Attempts before the one under way (a server's race sends the profile again).
        private var attempts = 0
        /// What the work came to.
        private(set) var result: RowOutcome?

        init(phase: LoginPhase, index: Int) {
            self.phase = phase
            self.index = index
        }

        func start(on link: PolledConnection, account: JID) throws -> ConversationStep {
            try phase.prepare(index)
            return try run(on: link)
        }

        func receive(_ element: XMLElement, on link: PolledConnection, account: JID) throws -> ConversationStep {
            guard let channel, channel.take(element) else { return .waiting }
            return try run(on: link)
        }

        func resume(on link: PolledConnection, account: JID) throws -> ConversationStep {
            channel = nil
            return try run(on: link)
        }

        /// A server may close the stream right after answering a cancellation, or instead of
        /// answering: the work hears of it as its reply (`RegistrationService.cancel`).
        func streamEnded(_ failure: ConnectionError, on link: PolledConnection, account: JID) throws -> ConversationStep? {
            guard let channel, result == nil else { return nil }
            channel.streamEnded(failure)
            return try run(on: link)
        }

        /// Runs the work from its start over what arrived so far.
        private func run(on link: PolledConnection) throws -> ConversationStep {
            let channel = self.channel ?? ReplayChannel(link.connection)
            self.channel = channel
            channel.beginRun()
            let step: Step
            do { step = try phase.perform(index, attempt: attempts, on: channel) } catch {
                guard channel.waitsForReply else { throw error }
                return channel.outbox.isEmpty ? .waiting : .send(channel.outbox)
            }
            if channel.waitsForReply { return channel.outbox.isEmpty ? .waiting : .send(channel.outbox) }
            if !channel.outbox.isEmpty { try link.send(channel.outbox) }
            switch step {
            case .done(let outcome):
                result = outcome
                return .finished
            case .again(let delay):
                attempts += 1
                return .later(.now + delay)
            }
        }
    }

    /// What a run of a row's work came to.
    enum Step {
        case done(RowOutcome)
        /// The server's race: the work again after this long.
        case again(after: Duration)
    }

    /// What row `index`'s work does once, before its first request: what is about to be
    /// changed is journaled (and a generated new password made) before anything is sent.
    fileprivate func prepare(_ index: Int) throws {
        var item = work[index].item
        defer { work[index].item = item }
        switch work[index].task {
        case .checkBeforeResend, .verifyCreated, .update, .profile:
            return
        case .delete:
            try recorder.markSent(lines: [item.row.line], generated: [:])
            item.uncertain = true
        case .passwd:
            guard !withNewPassword.contains(index) else { return }
            // A generated new password is made now that it is about to be set, and journaled first.
            let newPassword = item.newPassword ?? BatchInput.generatePassword()
            try recorder.markSent(lines: [item.row.line], generated: item.newPassword == nil ? [item.row.line: newPassword] : [:])
            item.newPassword = newPassword
            item.uncertain = true
        }
    }

    /// Row `index`'s work once logged in as its account, run over `channel` (after `prepare`).
    fileprivate func perform(_ index: Int, attempt: Int, on channel: any StanzaChannel) throws -> Step {
        var item = work[index].item
        defer { work[index].item = item }
        let user = item.row.jid.local ?? ""
        let task = work[index].task
        switch task {
        case .checkBeforeResend, .verifyCreated, .update, .profile:
            switch ProfileStep.apply(item.row, alreadyApplied: [], avatars: avatars, attempt: attempt, on: channel) {
            case .again(let delay):
                return .again(after: delay)
            case .done(let profile, let problem, let note):
                switch task {
                case .profile:
                    let notes = [BatchPlan.recreatedNote(item), note].compactMap { $0 }
                    return .done(outcome(item, .created, error: problem, profile: profile,
                                         note: notes.isEmpty ? nil : notes.joined(separator: "; ")))
                case .update: return .done(outcome(item, .updated, error: problem, profile: profile, note: note))
                default: return .done(outcome(item, .created, error: problem, profile: profile, note: note))
                }
            }
        case .delete:
            try unwrap { () throws(RegistrationError) in try RegistrationService.cancel(on: channel) }
            return .done(outcome(item, .deleted))
        case .passwd:
            guard !withNewPassword.contains(index), let newPassword = item.newPassword else {
                return .done(outcome(item, .changed))  // it already has the new password (an earlier run, or by hand)
            }
            do {
                try unwrap { () throws(RegistrationError) in
                    try RegistrationService.changePassword(on: channel, username: user, newPassword: newPassword)
                }
            } catch let error as ConnectionError {
                if case .stanzaError = error { item.uncertain = false }  // the server answered: not changed
                throw error
            }
            var changed = outcome(item, .changed)
            changed.csvPasswordSet = item.source == .csv
            return .done(changed)
        }
    }

    /// Why an existing account was not updated, by where the password that failed came from.
    static func notUpdated(_ source: RowPasswordOrigin) -> String {
        switch source {
        case .csv: return "the account exists and the CSV password does not log in, so it was not updated"
        case .report: return "the account exists and the password in the earlier report does not log in, so it was not updated"
        case .generated:
            return "the account exists and its password is unknown (the CSV gives none, and no earlier report of this batch "
                + "holds one), so it was not updated"
        }
    }

    /// A refusal that concerns this row only (the server answered); other errors (TLS,
    /// certificates, protocol) end the run.
    static func isRowFailure(_ error: ConnectionError) -> Bool {
        switch error {
        case .stanzaError, .sasl, .authenticationFailed: return true
        default: return false
        }
    }

    /// Rethrows a registration error's connection error as itself, so transient ones retry.
    private func unwrap(_ body: () throws(RegistrationError) -> Void) throws {
        do { try body() } catch {
            if case .connection(let c) = error { throw c }
            throw error
        }
    }

    private func outcome(_ item: WorkItem, _ status: JournalStatus, error: String? = nil, retryable: Bool = false,
                         profile: ProfileState? = nil, note: String? = nil) -> RowOutcome {
        RowOutcome(line: item.row.line, jid: item.row.jid.description, status: status, error: error,
                   retryable: retryable, uncertain: item.uncertain, profile: profile, note: note)
    }
}
