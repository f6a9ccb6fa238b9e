#if canImport(Glibc)
import Glibc
#endif
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// Row work that needs the row's own log-in: `--on-exists update`, checking whether an
/// unanswered registration created the account, `--delete` and `--passwd`. One row at a time,
/// each on its own authenticated stream (SASL and stream restarts are blocking in
/// `Connection`); network failures back off and retry like the registration engine's.
final class LoginPhase {
    /// What to do with a row.
    enum Task: Sendable {
        /// A registration went unanswered and the retry met `conflict`: did ours create it?
        case verifyCreated
        /// `--on-exists update`.
        case update
        /// `--delete`.
        case delete
        /// `--passwd`.
        case passwd
    }

    private let settings: RegistrationEngine.Settings
    private let recorder: BatchRecorder
    private let connect: () throws(ConnectionError) -> Connection
    private let resource: String?

    init(settings: RegistrationEngine.Settings, recorder: BatchRecorder, resource: String?,
         connect: @escaping () throws(ConnectionError) -> Connection) {
        self.settings = settings
        self.recorder = recorder
        self.resource = resource
        self.connect = connect
    }

    /// Runs every task in order; stops early when interrupted.
    func run(_ work: [(item: WorkItem, task: Task)]) throws -> RegistrationEngine.End {
        for (start, task) in work {
            var item = start
            var failures = 0
            while true {
                if BatchSignals.interrupted { return .interrupted }
                let result: RowOutcome
                do {
                    result = try perform(&item, task)
                } catch let error as ConnectionError where ReplyClassifier.isTransient(error) {
                    failures += 1
                    if failures >= settings.maxAttempts {
                        try recorder.commit([outcome(item, .failed, error: "gave up after \(failures) attempts: \(error)", retryable: true)])
                        break
                    }
                    pause(settings.backoff.delay(failures: failures))
                    continue
                } catch let error as ConnectionError where LoginPhase.isRowFailure(error) {
                    result = outcome(item, .failed, error: error.description)
                }
                try recorder.commit([result])
                break
            }
        }
        return .completed
    }

    private func perform(_ item: inout WorkItem, _ task: Task) throws -> RowOutcome {
        let user = item.row.jid.local ?? ""
        switch task {
        case .verifyCreated, .update:
            guard let connection = try login(user, item.password) else {
                if task == .update || settings.onExists == .update {
                    return outcome(item, .failed, error: "the account exists and the CSV password does not log in, so it was not updated")
                }
                return outcome(item, .exists, error: settings.onExists == .fail ? "the account already exists (--on-exists fail)" : nil)
            }
            defer { connection.close() }
            let (profile, problem) = try applyProfile(item.row, on: connection)
            return outcome(item, task == .verifyCreated ? .created : .updated, error: problem, profile: profile)
        case .delete:
            guard let connection = try login(user, item.password) else {
                if item.uncertain { return outcome(item, .deleted) }  // our earlier, unanswered cancel went through
                return outcome(item, .failed, error: "cannot log in: wrong password, or no such account")
            }
            defer { connection.close() }
            try connection.bind(resource: resource)
            try recorder.markSent(lines: [item.row.line])
            item.uncertain = true
            try unwrap { () throws(RegistrationError) in try RegistrationService.cancel(on: connection) }
            return outcome(item, .deleted)
        case .passwd:
            let newPassword = item.newPassword ?? ""
            guard let connection = try login(user, item.password) else {
                guard let again = try login(user, newPassword) else {
                    return outcome(item, .failed, error: "cannot log in with password or new_password (wrong password, or no such account)")
                }
                again.close()
                return outcome(item, .changed)  // it already has the new password (an earlier run, or by hand)
            }
            defer { connection.close() }
            try connection.bind(resource: resource)
            try recorder.markSent(lines: [item.row.line])
            item.uncertain = true
            try unwrap { () throws(RegistrationError) in
                try RegistrationService.changePassword(on: connection, username: user, newPassword: newPassword)
            }
            return outcome(item, .changed)
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

    /// An authenticated stream for the account, or nil when the server rejects the password.
    private func login(_ user: String, _ password: String) throws -> Connection? {
        let connection = try connect()
        do {
            _ = try connection.authenticate(username: user, credential: .password(password), usedSCRAMBefore: false)
            return connection
        } catch {
            connection.close()
            if case .authenticationFailed = error { return nil }
            throw error
        }
    }

    /// STEP 3 (see `ProfileStep`): binds, then sets the profile columns.
    private func applyProfile(_ row: BatchRow, on connection: Connection) throws -> (ProfileState?, String?) {
        if ProfileStep.canApplyNow && !row.profile.isEmpty { try connection.bind(resource: resource) }
        return ProfileStep.apply(row, alreadyApplied: [], on: connection)
    }

    /// Rethrows a registration error's connection error as itself, so transient ones retry.
    private func unwrap(_ body: () throws(RegistrationError) -> Void) throws {
        do { try body() } catch {
            if case .connection(let c) = error { throw c }
            throw error
        }
    }

    /// Sleeps, waking early for Ctrl-C.
    private func pause(_ duration: Duration) {
        let until = ContinuousClock.now + duration
        while !BatchSignals.interrupted {
            let left = ContinuousClock.now.duration(to: until)
            if left <= .zero { return }
            _ = poll(nil, 0, Int32(min(100, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)))
        }
    }

    private func outcome(_ item: WorkItem, _ status: JournalStatus, error: String? = nil, retryable: Bool = false,
                         profile: ProfileState? = nil) -> RowOutcome {
        RowOutcome(line: item.row.line, jid: item.row.jid.description, status: status, error: error,
                   retryable: retryable, uncertain: item.uncertain, profile: profile)
    }
}
