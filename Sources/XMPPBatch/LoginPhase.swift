#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// Row work that needs the row's own log-in: `--on-exists update`, checking whether an
/// unanswered registration created the account, profile columns, `--delete` and `--passwd`.
/// Each row gets its own authenticated stream; SASL and stream restarts block in `Connection`,
/// so `jobs` worker threads take rows from one queue. Network failures back off and retry like
/// the registration engine's.
///
/// `@unchecked Sendable`: the recorder (journal and events) is used only under `recorderLock`;
/// everything else is immutable or thread-safe.
final class LoginPhase: @unchecked Sendable {
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
    private let recorderLock = Mutex(())
    private let connect: @Sendable () throws(ConnectionError) -> Connection
    private let resource: String?
    private let avatars: ResizedAvatars
    private let resend = Mutex<[WorkItem]>([])

    /// The `checkBeforeResend` rows whose password did not log in: to be sent again.
    var toResend: [WorkItem] { resend.withLock { $0 } }

    init(settings: EngineSettings, recorder: BatchRecorder, resource: String?, avatars: ResizedAvatars,
         connect: @escaping @Sendable () throws(ConnectionError) -> Connection) {
        self.settings = settings
        self.recorder = recorder
        self.resource = resource
        self.avatars = avatars
        self.connect = connect
    }

    /// Runs every task, `settings.jobs` at a time; stops taking rows when interrupted or when
    /// one fails in a way that ends the run (that error is thrown once every worker stopped).
    func run(_ work: [(item: WorkItem, task: Task)]) throws -> BatchEnd {
        try WorkerThreads.drain(work.count, workers: settings.jobs, shouldStop: settings.shouldStop) { index in
            try self.runRow(work[index].item, work[index].task)
        }
    }

    /// One row to its outcome, retrying network failures with back-off; false when interrupted
    /// before it had one (the journal keeps it for `--resume`).
    private func runRow(_ start: WorkItem, _ task: Task) throws -> Bool {
        var item = start
        var failures = 0
        while true {
            let result: RowOutcome
            do {
                guard let done = try perform(&item, task) else {
                    resend.withLock { $0.append(item) }
                    return true
                }
                result = done
            } catch let error as ConnectionError where error.isTransient {
                failures += 1
                if failures >= settings.maxAttempts {
                    try commit(outcome(item, .failed, error: "gave up after \(failures) attempts: \(error)", retryable: true))
                    return true
                }
                pause(settings.backoff.delay(failures: failures))
                if settings.shouldStop() { return false }
                continue
            } catch let error as ConnectionError where LoginPhase.isRowFailure(error) {
                result = outcome(item, .failed, error: error.description)
            }
            try commit(result)
            return true
        }
    }

    private func commit(_ outcome: RowOutcome) throws {
        try recorderLock.withLock { _ throws(JournalError) in try recorder.commit([outcome]) }
    }

    private func markSent(_ line: Int, generated: [Int: String] = [:]) throws {
        try recorderLock.withLock { _ throws(JournalError) in try recorder.markSent(lines: [line], generated: generated) }
    }

    /// The row's outcome; nil for a `checkBeforeResend` row to send again.
    private func perform(_ item: inout WorkItem, _ task: Task) throws -> RowOutcome? {
        let user = item.row.jid.local ?? ""
        guard let password = item.password else {
            return outcome(item, .failed, error: "no password to log in with (the journal has none for this row)")
        }
        switch task {
        case .checkBeforeResend:
            // Any refusal sends it again, still uncertain: an account that exists with another
            // password then meets `conflict` and is checked as before.
            guard case .connected(let connection) = try login(user, password) else { return nil }
            defer { connection.close() }
            let (profile, problem, note) = try applyProfile(item.row, on: connection)
            return outcome(item, .created, error: problem, profile: profile, note: note)
        case .verifyCreated, .update:
            guard case .connected(let connection) = try login(user, password) else {
                item.uncertain = false  // our password does not log in: no request of ours set it
                if task == .update || settings.onExists == .update {
                    return outcome(item, .failed, error: LoginPhase.notUpdated(item.source))
                }
                return outcome(item, .exists, error: settings.onExists == .fail ? "the account already exists (--on-exists fail)" : nil)
            }
            defer { connection.close() }
            let (profile, problem, note) = try applyProfile(item.row, on: connection)
            return outcome(item, task == .verifyCreated ? .created : .updated, error: problem, profile: profile, note: note)
        case .profile:
            guard case .connected(let connection) = try login(user, password) else {
                return outcome(item, .created, error: "created, but its password no longer logs in, so the profile was not set",
                               profile: .pending(item.row.profile.names))
            }
            defer { connection.close() }
            let (profile, problem, note) = try applyProfile(item.row, on: connection)
            let notes = [BatchPlan.recreatedNote(item), note].compactMap { $0 }
            return outcome(item, .created, error: problem, profile: profile, note: notes.isEmpty ? nil : notes.joined(separator: "; "))
        case .delete:
            let attempt = try login(user, password)
            guard case .connected(let connection) = attempt else {
                if item.uncertain { return outcome(item, .deleted) }  // our earlier, unanswered cancel went through
                if case .refused(noSuchAccount: true) = attempt {
                    return outcome(item, .deleted, note: "no such account")  // deleting is idempotent, like rm -f
                }
                return outcome(item, .failed, error: "cannot log in: wrong password, or no such account")
            }
            defer { connection.close() }
            try connection.bind(resource: resource)
            try markSent(item.row.line)
            item.uncertain = true
            try unwrap { () throws(RegistrationError) in try RegistrationService.cancel(on: connection) }
            return outcome(item, .deleted)
        case .passwd:
            guard case .connected(let connection) = try login(user, password) else {
                guard let newPassword = item.newPassword, case .connected(let again) = try login(user, newPassword) else {
                    item.uncertain = false
                    return outcome(item, .failed, error: "cannot log in with password or new_password (wrong password, or no such account)")
                }
                again.close()
                return outcome(item, .changed)  // it already has the new password (an earlier run, or by hand)
            }
            defer { connection.close() }
            try connection.bind(resource: resource)
            // A generated new password is made now that it is about to be set, and journaled first.
            let newPassword = item.newPassword ?? BatchInput.generatePassword()
            try markSent(item.row.line, generated: item.newPassword == nil ? [item.row.line: newPassword] : [:])
            item.newPassword = newPassword
            item.uncertain = true
            do {
                try unwrap { () throws(RegistrationError) in
                    try RegistrationService.changePassword(on: connection, username: user, newPassword: newPassword)
                }
            } catch let error as ConnectionError {
                if case .stanzaError = error { item.uncertain = false }  // the server answered: not changed
                throw error
            }
            var changed = outcome(item, .changed)
            changed.csvPasswordSet = item.source == .csv
            return changed
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

    /// What a log-in attempt gave.
    enum LoginAttempt {
        case connected(Connection)
        /// The server refused the password. `noSuchAccount`: it refused the SCRAM exchange
        /// before its first challenge, which Prosody and ejabberd do only for an account that does
        /// not exist (a wrong password fails after the challenge).
        case refused(noSuchAccount: Bool)
    }

    /// An authenticated stream for the account, or why the server refused the password.
    private func login(_ user: String, _ password: String) throws -> LoginAttempt {
        let connection = try connect()
        do {
            _ = try connection.authenticate(username: user, credential: .password(password), usedSCRAMBefore: false)
            return .connected(connection)
        } catch {
            connection.close()
            if case .authenticationFailed(let condition, _) = error {
                return .refused(noSuchAccount: condition == "not-authorized" && connection.refusedBeforeChallenge)
            }
            throw error
        }
    }

    /// STEP 3 (see `ProfileStep`): binds, then sets the profile columns.
    private func applyProfile(_ row: BatchRow, on connection: Connection) throws -> (ProfileState?, String?, note: String?) {
        if !row.profile.isEmpty { try connection.bind(resource: resource) }
        return ProfileStep.apply(row, alreadyApplied: [], avatars: avatars, on: connection)
    }

    /// Rethrows a registration error's connection error as itself, so transient ones retry.
    private func unwrap(_ body: () throws(RegistrationError) -> Void) throws {
        do { try body() } catch {
            if case .connection(let c) = error { throw c }
            throw error
        }
    }

    /// Sleeps, waking early for Ctrl-C.
    private func pause(_ duration: Duration) { WorkerThreads.pause(duration, shouldStop: settings.shouldStop) }

    private func outcome(_ item: WorkItem, _ status: JournalStatus, error: String? = nil, retryable: Bool = false,
                         profile: ProfileState? = nil, note: String? = nil) -> RowOutcome {
        RowOutcome(line: item.row.line, jid: item.row.jid.description, status: status, error: error,
                   retryable: retryable, uncertain: item.uncertain, profile: profile, note: note)
    }
}
