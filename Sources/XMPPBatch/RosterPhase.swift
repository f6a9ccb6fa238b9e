import Synchronization
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// ─── The last step of a batch: rosters between its accounts (`RosterPlan`) ──────────────────
/// Every pair must end subscribed both ways, approved on both sides, without anyone online to
/// answer a request. The batch has every account's password (the CSV's, or the one it generated
/// and journaled), so it logs in as each account, which works the same with and without
/// `--admin` and on every server: XEP-0133 has no roster command, and the servers' own ones
/// (ejabberd's add_rosteritem, Prosody's mod_groups) are not reachable over XMPP alike.
///
/// Two passes over the accounts, `--jobs` at a time, each with its own log-in:
/// 1. `requested`: a roster set per contact (its name and groups), then a `subscribe` to each.
///    The server stores the request until the contact answers.
/// 2. `done`, once every first pass has run: the roster is read, and to each contact that does
///    not yet see the account's presence (`none`, `to`), `subscribed` approves the request the
///    contact's first pass left waiting. Both passes are idempotent, so a crash redoes at most one
///    account's. No pre-approval (`subscribed` before the request, RFC 6121 §3.4): Prosody 0.12
///    then marked the approving side `both` but never gave the requester its `to`
///    (`RosterBatchEndToEndTests`).
/// The account is never available (no initial presence), so no presence reaches it and its
/// requests wait in the server for the second pass.
final class RosterPhase: @unchecked Sendable {
    /// The journal's `roster` column.
    enum State: String, Sendable {
        case pending, requested, done, failed

        /// True for a row whose roster is still to do.
        static func isUnfinished(_ journalText: String?) -> Bool {
            journalText == State.pending.rawValue || journalText == State.requested.rawValue
        }
    }

    /// Rows whose account exists with a password this batch knows can take part.
    static let accountStatuses: Set<JournalStatus> = [.created, .exists, .updated, .registered]

    private let plan: BatchPlan
    private let settings: RegistrationEngine.Settings
    private let recorder: BatchRecorder
    private let recorderLock = Mutex(())
    private let resource: String?
    private let connect: @Sendable (_ domain: String) throws -> Connection

    init(plan: BatchPlan, settings: RegistrationEngine.Settings, recorder: BatchRecorder, resource: String?,
         connect: @escaping @Sendable (_ domain: String) throws -> Connection) {
        self.plan = plan
        self.settings = settings
        self.recorder = recorder
        self.resource = resource
        self.connect = connect
    }

    /// One account's work in a pass.
    private struct Job: Sendable {
        var row: BatchRow
        var password: String
        var contacts: [RosterItem]
    }

    /// Runs both passes for the rows whose roster is not done.
    func run() throws -> BatchEnd {
        guard !plan.rosterRows.isEmpty else { return .completed }
        var entries: [Int: JournalEntry] = [:]
        for e in try recorder.journal.entries() { entries[e.line] = e }
        var passwords: [JID: String] = [:]
        var firstPass: [Job] = []
        var secondPass: [Int] = []
        var settled: [(line: Int, state: String, error: String?)] = []
        for (line, row) in plan.rosterRows {
            guard let entry = entries[line], RosterPhase.accountStatuses.contains(entry.status),
                  let password = row.password ?? entry.generatedPassword else { continue }
            passwords[row.jid] = password
        }
        for (line, row) in plan.rosterRows.sorted(by: { $0.key < $1.key }) {
            guard let entry = entries[line] else { continue }
            let state = State(rawValue: entry.roster ?? "")
            guard state == .pending || state == .requested else { continue }
            guard passwords[row.jid] != nil else {
                if RosterPhase.accountStatuses.contains(entry.status) {
                    settled.append((line, State.failed.rawValue, "roster not set: the account's password is unknown to this batch"))
                } else if entry.status.isFinal && !(entry.status == .failed && entry.retryable) {
                    settled.append((line, State.failed.rawValue, nil))  // the row's own failure says why
                }
                continue
            }
            if state == .pending {
                firstPass.append(job(row))
            } else {
                secondPass.append(line)
            }
        }
        try record(settled)
        func job(_ row: BatchRow) -> Job {
            Job(row: row, password: passwords[row.jid] ?? "",
                contacts: (plan.roster.contacts[row.line] ?? []).filter { passwords[$0.jid] != nil })
        }
        if try run(firstPass, approving: false) == .interrupted { return .interrupted }
        // A contact finished in an earlier run approves the requests this run's first pass sent it.
        let asked = Set(firstPass.flatMap { $0.contacts.map(\.jid) })
        for (line, row) in plan.rosterRows where asked.contains(row.jid) && entries[line]?.roster == State.done.rawValue {
            secondPass.append(line)
        }
        secondPass += firstPass.map(\.row.line)
        let second = Set(secondPass).sorted().compactMap { plan.rosterRows[$0] }.map(job)
        return try run(second, approving: true)
    }

    /// One pass, `jobs` accounts at a time; stops taking rows when interrupted or when one
    /// fails in a way that ends the run (thrown once every worker stopped).
    private func run(_ jobs: [Job], approving: Bool) throws -> BatchEnd {
        try WorkerThreads.drain(jobs.count, workers: settings.jobs, shouldStop: settings.shouldStop) { index in
            try self.runJob(jobs[index], approving: approving)
        }
    }

    /// One account's pass to its recorded state, retrying network failures with back-off; false
    /// when interrupted first (the state stays, for `--resume`).
    private func runJob(_ job: Job, approving: Bool) throws -> Bool {
        var failures = 0
        let reached = approving ? State.done : State.requested
        while true {
            do {
                try perform(job, approving: approving)
                try record([(job.row.line, reached.rawValue, nil)])
                return true
            } catch let error as ConnectionError where error.isTransient {
                failures += 1
                if failures >= settings.maxAttempts {
                    // The state stays unfinished: the run is not finished, and --resume tries again.
                    let text = "roster not finished: gave up after \(failures) attempts: \(error)"
                    recorderLock.withLock { _ in recorder.note("\(job.row.jid): \(text)") }
                    return true
                }
                pause(settings.backoff.delay(failures: failures))
                if settings.shouldStop() { return false }
            } catch let error as ConnectionError where LoginPhase.isRowFailure(error) {
                let text = "roster not set: \(error)"
                try record([(job.row.line, State.failed.rawValue, text)])
                recorderLock.withLock { _ in recorder.note("\(job.row.jid): \(text)") }
                return true
            }
        }
    }

    private func perform(_ job: Job, approving: Bool) throws {
        let connection = try connect(job.row.jid.domain)
        defer { connection.close() }
        _ = try connection.authenticate(username: job.row.jid.local ?? "", credential: .password(job.password), usedSCRAMBefore: false)
        let account = try connection.bind(resource: resource)
        var presences: [Presence] = []
        if approving {
            guard case .full(let query) = try RosterService.fetch(on: connection, cachedVer: nil) else { return }
            var present: [JID: RosterItem] = [:]
            for item in query.items { present[item.jid.bare] = item }
            for contact in job.contacts {
                let item = present[contact.jid]
                if item == nil { try RosterService.set(contact, on: connection) }
                let subscription = item?.subscription ?? .none
                if subscription == .none || subscription == .to {
                    presences.append(PresenceService.subscription(.subscribed, to: contact.jid))
                }
                if !subscription.receivesPresence && !(item?.ask ?? false) {
                    presences.append(PresenceService.subscription(.subscribe, to: contact.jid))  // a request that was lost
                }
            }
        } else {
            try setItems(job.contacts, on: connection)
            presences = job.contacts.map { PresenceService.subscription(.subscribe, to: $0.jid) }
        }
        // Once the ping is answered, the server has handled every presence before it.
        _ = try PresenceService.barrier(on: connection, account: account, sending: presences.map(\.element))
    }

    /// The roster sets, fifty in flight at a time.
    private func setItems(_ items: [RosterItem], on connection: Connection) throws(ConnectionError) {
        var start = 0
        while start < items.count {
            let chunk = items[start..<min(start + 50, items.count)]
            let iqs = chunk.map { RosterService.setIq($0, id: connection.makeID()) }
            try connection.send(iqs.map(\.element))
            for iq in iqs { _ = try connection.awaitReply(id: iq.id) }
            start += 50
        }
    }

    private func record(_ updates: [(line: Int, state: String, error: String?)]) throws {
        try recorderLock.withLock { _ throws(JournalError) in try recorder.journal.recordRoster(updates) }
    }

    /// Sleeps, waking early for Ctrl-C.
    private func pause(_ duration: Duration) { WorkerThreads.pause(duration, shouldStop: settings.shouldStop) }
}
