import Synchronization
import XMLTree
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
/// Two passes over the accounts, `--jobs` at a time, each with its own log-in, and each reads
/// the roster first and sends only what it lacks (a server's storage may rewrite the whole
/// roster for every item: Prosody's files do, so a stanza not sent is a roster not rewritten):
/// 1. `requested`: a roster set per contact that is missing or named or grouped otherwise, then a
///    `subscribe` to each contact whose presence the account does not receive and has not asked
///    for. The server stores the request until the contact answers.
/// 2. `done`, once every first pass has run: to each contact that does not yet see the account's
///    presence (`none`, `to`), `subscribed` approves the request the contact's first pass left
///    waiting. Both passes are idempotent, so a crash redoes at most one account's, and a retry
///    after a time-out re-sends only what did not take effect.
/// No pre-approval (`subscribed` before the request, RFC 6121 §3.4): Prosody 0.12 then marked
/// the approving side `both` but never gave the requester its `to` (`RosterBatchEndToEndTests`),
/// and Prosody 13 stores the request beside the pre-approval and
/// leaves the approving side at `none` (mod_presence), so it would cost a stanza, not save one.
/// Stanzas go out `window` (8) at a time, each window closed by a ping: the server's queue for the
/// batch stays short, so other clients (a pupil logging in) are served in between, a slow server
/// shows as progress rather than one long wait, and Ctrl-C is seen between windows.
/// The account is never available (no initial presence), so no presence reaches it and its
/// requests wait in the server for the second pass.
/// An account that existed before this run, whose contacts are what an earlier batch finished
/// with (`RosterMemory`) and none of whose contacts is new, is not logged in at all.
final class RosterPhase: @unchecked Sendable {
    /// The journal's `roster` column.
    enum State: String, Sendable {
        case pending, requested, done, failed
        /// Done by an earlier batch with the same contacts, and not logged in to this time.
        case unchanged

        /// True for a row whose roster is still to do.
        static func isUnfinished(_ journalText: String?) -> Bool {
            journalText == State.pending.rawValue || journalText == State.requested.rawValue
        }
    }

    /// Rows whose account exists with a password this batch knows can take part.
    static let accountStatuses: Set<JournalStatus> = [.created, .exists, .updated, .registered]

    /// Stanzas sent before a ping waits for the server to have handled them. A log-in by someone
    /// else waits behind up to `--jobs` windows at each of its round trips (DESIGN-NOTES.md).
    static let window = 8

    private let plan: BatchPlan
    private let settings: EngineSettings
    private let recorder: BatchRecorder
    private let recorderLock = Mutex(())
    private let resource: String?
    private let memory: RosterMemory?
    private let connect: @Sendable (_ domain: String) throws -> Connection
    /// Who each first pass sent a request to (target → requesters): they approve it, in their
    /// own first pass when the requester's had finished before it began, else in the second.
    private let requested = Mutex([JID: Set<JID>]())
    /// Accounts whose first pass finished in this run, so their requests wait to be approved.
    private let firstPassed = Mutex(Set<JID>())
    /// Whom each account approved in its first pass.
    private let approvedEarly = Mutex([JID: Set<JID>]())
    /// Accounts whose requests the second pass approves: those whose first pass went through.
    private var approvable: Set<JID> = []

    init(plan: BatchPlan, settings: EngineSettings, recorder: BatchRecorder, resource: String?,
         memory: RosterMemory? = nil, connect: @escaping @Sendable (_ domain: String) throws -> Connection) {
        self.plan = plan
        self.settings = settings
        self.recorder = recorder
        self.resource = resource
        self.memory = memory
        self.connect = connect
    }

    /// One account's work in a pass.
    private struct Job: Sendable {
        var row: BatchRow
        var password: String
        var contacts: [RosterItem]
        /// Contacts to take out of the roster (removing an item cancels both subscriptions).
        var remove: [JID]
        /// Empty the roster first (every item removed), then make it.
        var reset = false
        /// `RosterMemory.digest` of all the row's contacts (whether or not they take part).
        var digest: String
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
            // sync never touches an account it did not create (one that turned out to exist).
            if let allowed = plan.rosterAccounts, !allowed.contains(row.jid), ![.created, .registered].contains(entry.status) {
                continue
            }
            passwords[row.jid] = password
        }
        // Accounts made by this run: their contacts' rosters change even where the CSV did not.
        let new = Set(plan.rosterRows.compactMap { line, row in
            [.created, .registered].contains(entries[line]?.status) ? row.jid : nil
        })
        let remembered = memory?.digests(for: plan.rosterRows.values.map(\.jid)) ?? [:]
        for (line, row) in plan.rosterRows.sorted(by: { $0.key < $1.key }) {
            guard let entry = entries[line] else { continue }
            let state = State(rawValue: entry.roster ?? "")
            guard state == .pending || state == .requested else { continue }
            guard passwords[row.jid] != nil else {
                if let allowed = plan.rosterAccounts, !allowed.contains(row.jid), RosterPhase.accountStatuses.contains(entry.status) {
                    // sync: an account that existed before is left as it is, which is no failure.
                    settled.append((line, State.unchanged.rawValue, nil))
                } else if RosterPhase.accountStatuses.contains(entry.status) {
                    settled.append((line, State.failed.rawValue, "roster not set: the account's password is unknown to this batch"))
                } else if entry.status.isFinal && !(entry.status == .failed && entry.retryable) {
                    settled.append((line, State.failed.rawValue, nil))  // the row's own failure says why
                }
                continue
            }
            let work = job(row)
            if state == .pending, [.exists, .updated].contains(entry.status), remembered[row.jid] == work.digest,
               !(plan.roster.contacts[line] ?? []).contains(where: { new.contains($0.jid) }) {
                settled.append((line, State.unchanged.rawValue, nil))  // as an earlier batch left it
            } else if state == .pending {
                firstPass.append(work)
            } else {
                secondPass.append(line)
            }
        }
        try record(settled)
        func job(_ row: BatchRow) -> Job {
            let all = plan.roster.contacts[row.line] ?? []
            return Job(row: row, password: passwords[row.jid] ?? "", contacts: all.filter { passwords[$0.jid] != nil },
                       remove: plan.rosterRemovals[row.line] ?? [], reset: plan.rosterResets.contains(row.line),
                       digest: RosterMemory.digest(all))
        }
        // Accounts new in this run go first: the others' first passes then find their requests
        // waiting and approve them at once.
        firstPass = firstPass.filter { new.contains($0.row.jid) } + firstPass.filter { !new.contains($0.row.jid) }
        // Rosters emptied first go before all others: a removal cancels the subscriptions both
        // ways, which must not meet a contact's fresh request.
        let resets = firstPass.filter(\.reset)
        if !resets.isEmpty, try run(resets, approving: false) == .interrupted { return .interrupted }
        if try run(firstPass.filter { !$0.reset }, approving: false) == .interrupted { return .interrupted }
        // The second pass: every account whose first pass went through, and each account whose
        // roster is done (earlier, or left as it was) that this run's first pass sent a request.
        // An account whose first pass failed (a refused password) sent no request, so nobody
        // approves it: a `subscribed` without a request is a pre-approval, and Prosody 13 later
        // leaves such a pair `both` on one side and `from` + ask on the other.
        let asked = requested.withLock { $0 }
        let early = approvedEarly.withLock { $0 }
        let states = try recorder.journal.entries().reduce(into: [Int: State]()) { $0[$1.line] = State(rawValue: $1.roster ?? "") }
        var approvable: Set<JID> = []
        for (line, row) in plan.rosterRows where [.requested, .done, .unchanged].contains(states[line]) { approvable.insert(row.jid) }
        for (line, row) in plan.rosterRows where [.done, .unchanged].contains(states[line]) {
            if !(asked[row.jid] ?? []).subtracting(early[row.jid] ?? []).isEmpty { secondPass.append(line) }
        }
        secondPass += firstPass.map(\.row.line).filter { states[$0] == .requested }
        let second = Set(secondPass).sorted().compactMap { plan.rosterRows[$0] }.map(job)
        self.approvable = approvable
        return try run(second, approving: true)
    }

    /// One pass, `jobs` accounts at a time; stops taking rows when interrupted or when one
    /// fails in a way that ends the run (thrown once every worker stopped).
    private func run(_ jobs: [Job], approving: Bool) throws -> BatchEnd {
        guard !jobs.isEmpty else { return .completed }
        let pass = approving ? 2 : 1
        let finished = Mutex(0)
        recorderLock.withLock { _ in recorder.events.rosterProgress(pass: pass, done: 0, total: jobs.count) }
        return try WorkerThreads.drain(jobs.count, workers: settings.jobs, shouldStop: settings.shouldStop) { index in
            let ended = try self.runJob(jobs[index], approving: approving)
            if ended {
                let done = finished.withLock { n in n += 1; return n }
                self.recorderLock.withLock { _ in self.recorder.events.rosterProgress(pass: pass, done: done, total: jobs.count) }
            }
            return ended
        }
    }

    /// One account's pass to its recorded state, retrying network failures with back-off; false
    /// when interrupted first (the state stays, for `--resume`).
    private func runJob(_ job: Job, approving: Bool) throws -> Bool {
        var failures = 0
        let reached = approving ? State.done : State.requested
        while true {
            do {
                guard let complete = try perform(job, approving: approving) else { return false }
                // A first pass that left nothing to approve is done without a second one.
                let state = complete ? State.done : reached
                try record([(job.row.line, state.rawValue, nil)])
                if state == .done { memory?.remember(job.row.jid, digest: job.digest) }
                if !approving { firstPassed.withLock { _ = $0.insert(job.row.jid) } }
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
                // A password the report carried that no longer works was most likely reset since
                // (passwd --admin): the report cannot know, so say where the current one goes.
                let text = error.isAuthRejection
                    ? "roster not set: the server refused this batch's password for the account (\(error)); if it was changed "
                        + "since (xmpp-register passwd --admin), put the current one in the report's password column (or the "
                        + "CSV's; passwd --admin JID --report REPORT does it as it resets the password) and run again"
                    : "roster not set: \(error)"
                try record([(job.row.line, State.failed.rawValue, text)])
                recorderLock.withLock { _ in recorder.note("\(job.row.jid): \(text)") }
                return true
            }
        }
    }

    /// One account's pass: reads its roster, then sends what it lacks, `window` stanzas at a
    /// time. The first pass also approves the contacts whose first pass finished before it began
    /// (their requests are waiting): after one more pupil, the class and the teachers approve it
    /// at once and need no second log-in. Nil when asked to stop between windows; else whether
    /// nothing is left for the account to approve.
    private func perform(_ job: Job, approving: Bool) throws -> Bool? {
        let approving_ = approving ? approvable : firstPassed.withLock { $0 }
        let connection = try connect(job.row.jid.domain)
        defer { connection.close() }
        _ = try connection.authenticate(username: job.row.jid.local ?? "", credential: .password(job.password), usedSCRAMBefore: false)
        let account = try connection.bind(resource: resource)
        guard case .full(let query) = try RosterService.fetch(on: connection, cachedVer: nil) else {
            throw ConnectionError.protocolViolation("the server answered a roster request without the roster")
        }
        var present: [JID: RosterItem] = [:]
        for item in query.items { present[item.jid.bare] = item }
        var stanzas: [XMLElement] = []
        var sets: Set<String> = []
        var asking: [JID] = []
        var approved: Set<JID> = []
        var complete = true
        if job.reset && !approving {
            // RFC 6121 §2.5 for every item: an empty roster without subscriptions to build on.
            for jid in present.keys.sorted(by: { $0.description < $1.description }) {
                let iq = RosterService.removeIq(jid, id: connection.makeID())
                sets.insert(iq.id)
                stanzas.append(iq.element)
            }
            present = [:]
        }
        for gone in job.remove where present[gone] != nil {
            // RFC 6121 §2.5: subscription='remove' deletes the item and cancels both subscriptions.
            let iq = RosterService.removeIq(gone, id: connection.makeID())
            sets.insert(iq.id)
            stanzas.append(iq.element)
        }
        for contact in job.contacts {
            let item = present[contact.jid]
            if item == nil || item?.name != contact.name || item?.groups != contact.groups {
                let iq = RosterService.setIq(contact, id: connection.makeID())
                sets.insert(iq.id)
                stanzas.append(iq.element)
            }
            let subscription = item?.subscription ?? .none
            if !subscription.sendsPresence {
                if approving_.contains(contact.jid) {
                    stanzas.append(PresenceService.subscription(.subscribed, to: contact.jid).element)
                    approved.insert(contact.jid)
                } else {
                    complete = false
                }
            }
            if !subscription.receivesPresence && !(item?.ask ?? false) {
                stanzas.append(PresenceService.subscription(.subscribe, to: contact.jid).element)
                asking.append(contact.jid)
            }
        }
        var start = 0
        while start < stanzas.count {
            if start > 0 && settings.shouldStop() { return nil }
            let window = Array(stanzas[start..<min(start + RosterPhase.window, stanzas.count)])
            var refusal: StanzaError?
            guard try handled(window, on: connection, account: account, each: { event in
                if case .reply(let iq) = event, sets.contains(iq.id), iq.type == .error, refusal == nil {
                    refusal = iq.error ?? StanzaError(type: "cancel", condition: .undefinedCondition)
                }
            }) else { return nil }
            if let refusal { throw ConnectionError.stanzaError(refusal) }
            start += RosterPhase.window
        }
        if !asking.isEmpty {
            requested.withLock { asked in for jid in asking { asked[jid, default: []].insert(job.row.jid) } }
        }
        if !approving { approvedEarly.withLock { $0[job.row.jid] = approved } }
        return complete || approving
    }

    /// Sends `window` and a ping, and waits for the pong: once it is answered, the server has
    /// handled every stanza before it. Waits in slices, so that once asked to stop it gives up
    /// after `stopGrace` (the window is redone by `--resume`: each pass reads before it sends).
    /// False when it gave up that way.
    private func handled(_ window: [XMLElement], on connection: Connection, account: JID,
                         each: (IncomingEvent) -> Void) throws -> Bool {
        let id = connection.makeID()
        var ping = Iq(type: .get, id: id, payload: XMLElement("ping", namespace: Namespace.ping))
        ping.to = try? JID(local: nil, domain: account.domain)
        try connection.send(window + [ping.element])
        let deadline = ContinuousClock.now + connection.timeout
        var stopSeen: ContinuousClock.Instant?
        while true {
            let now = ContinuousClock.now
            if stopSeen == nil && settings.shouldStop() { stopSeen = now }
            if let stopSeen, now - stopSeen >= RosterPhase.stopGrace { return false }
            let slice = min(deadline, now + .milliseconds(250))
            let event: IncomingEvent
            do {
                event = try PresenceService.next(on: connection, account: account, deadline: slice)
            } catch {
                guard case .timedOut = error, ContinuousClock.now < deadline else { throw error }
                continue
            }
            if case .reply(let iq) = event, iq.id == id { return true }
            each(event)
        }
    }

    /// How long a window still in the server's hands is awaited once the run is asked to stop,
    /// within the 3 s the manual promises for Ctrl-C.
    static let stopGrace = Duration.seconds(2)

    private func record(_ updates: [(line: Int, state: String, error: String?)]) throws {
        try recorderLock.withLock { _ throws(JournalError) in try recorder.journal.recordRoster(updates) }
    }

    /// Sleeps, waking early for Ctrl-C.
    private func pause(_ duration: Duration) { WorkerThreads.pause(duration, shouldStop: settings.shouldStop) }
}
