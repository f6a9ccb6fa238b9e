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
final class RosterPhase {
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
    private let resource: String?
    private let memory: RosterMemory?
    private let logIn: (_ domain: String, _ username: String, _ password: String) throws(ConnectionError) -> PolledSetup
    private let bound: (PolledConnection) -> Void
    /// Who each first pass sent a request to (target → requesters): they approve it, in their
    /// own first pass when the requester's had finished before it began, else in the second.
    private var requested: [JID: Set<JID>] = [:]
    /// Accounts whose first pass finished in this run, so their requests wait to be approved.
    private var firstPassed: Set<JID> = []
    /// Whom each account approved in its first pass.
    private var approvedEarly: [JID: Set<JID>] = [:]
    /// Accounts whose requests the second pass approves: those whose first pass went through.
    private var approvable: Set<JID> = []

    init(plan: BatchPlan, settings: EngineSettings, recorder: BatchRecorder, resource: String?,
         memory: RosterMemory? = nil,
         logIn: @escaping (_ domain: String, _ username: String, _ password: String) throws(ConnectionError) -> PolledSetup,
         bound: @escaping (PolledConnection) -> Void = { _ in }) {
        self.plan = plan
        self.settings = settings
        self.recorder = recorder
        self.resource = resource
        self.memory = memory
        self.logIn = logIn
        self.bound = bound
    }

    /// One account's work in a pass.
    struct Job: Sendable {
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
        let asked = requested
        let early = approvedEarly
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

    /// One pass, `jobs` accounts at a time, each over its own log-in (`AccountSessions`);
    /// stops taking rows when interrupted, or when one fails in a way that ends the run.
    private func run(_ jobs: [Job], approving: Bool) throws -> BatchEnd {
        guard !jobs.isEmpty else { return .completed }
        let pass = approving ? 2 : 1
        var finished = 0
        recorder.events.rosterProgress(pass: pass, done: 0, total: jobs.count)
        let sessions = AccountSessions<RosterConversation>(
            settings: settings, stopGrace: RosterPhase.stopGrace,
            logIn: { index throws(ConnectionError) in
                let job = jobs[index]
                return try self.logIn(job.row.jid.domain, job.row.jid.local ?? "", job.password)
            },
            conversation: { index in
                RosterConversation(job: jobs[index], approving: approving,
                                   approvable: approving ? self.approvable : self.firstPassed)
            },
            bound: bound)
        return try sessions.run(count: jobs.count) { index, end in
            try self.ended(jobs[index], approving: approving, end)
            finished += 1
            self.recorder.events.rosterProgress(pass: pass, done: finished, total: jobs.count)
            return false
        }
    }

    /// Records how one account's pass ended: its roster state, or why it failed or is unfinished.
    private func ended(_ job: Job, approving: Bool, _ end: AccountSessions<RosterConversation>.End) throws {
        switch end {
        case .done(let conversation):
            if !conversation.asking.isEmpty {
                for jid in conversation.asking { requested[jid, default: []].insert(job.row.jid) }
            }
            if !approving { approvedEarly[job.row.jid] = conversation.approved }
            // A first pass that left nothing to approve is done without a second one.
            let state = conversation.complete || approving ? State.done : State.requested
            try record([(job.row.line, state.rawValue, nil)])
            if state == .done { memory?.remember(job.row.jid, digest: job.digest) }
            if !approving { firstPassed.insert(job.row.jid) }
        case .gaveUp(let error, let attempts):
            // The state stays unfinished: the run is not finished, and --resume tries again.
            recorder.note("\(job.row.jid): roster not finished: gave up after \(attempts) attempts: \(error)")
        case .refused(let error, _, _):
            // A password the report carried that no longer works was most likely reset since
            // (passwd --admin): the report cannot know, so say where the current one goes.
            let text = error.isAuthRejection
                ? "roster not set: the server refused this batch's password for the account (\(error)); if it was changed "
                    + "since (xmpp-register passwd --admin), put the current one in the report's password column (or the "
                    + "CSV's; passwd --admin JID --report REPORT does it as it resets the password) and run again"
                : "roster not set: \(error)"
            try record([(job.row.line, State.failed.rawValue, text)])
            recorder.note("\(job.row.jid): \(text)")
        }
    }

    /// How long a window still in the server's hands is awaited once the run is asked to stop,
    /// within the 3 s the manual promises for Ctrl-C.
    static let stopGrace = Duration.seconds(2)

    private func record(_ updates: [(line: Int, state: String, error: String?)]) throws {
        try recorder.recordRoster(updates)
    }
}
