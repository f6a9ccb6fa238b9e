import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// `--admin`: adds, deletes or re-passwords many accounts with XEP-0133 commands over `jobs`
/// streams authenticated as the administrator, driven by one poll() loop as the registration
/// engine is. Each stream runs its command once to learn the server's form (and cancels that
/// session), then sends every row's `execute` with that form already filled in, `window` at a
/// time; a server that answers with its form anyway gets it answered in a second stage. A
/// dropped stream requeues its unanswered rows, marked uncertain, as registration does.
final class AdminEngine {
    private var items: [WorkItem]
    private let command: ServiceAdministration.Command
    private let mode: BatchMode
    /// `--invite`: each row's request is XEP-0401 create-account, which takes no form.
    private let invite: Bool
    private var node: String { invite ? AdminEngine.inviteNode : command.node }
    /// Prosody's account-invite command (mod_invites_adhoc).
    static let inviteNode = Namespace.invite + "#create-account"
    private let settings: RegistrationEngine.Settings
    private let connect: (_ stream: Int) throws -> PolledConnection
    private let spread: EndpointSpread?
    private let recorder: BatchRecorder
    private var rows: RowQueue
    private let slots: [AdminSlot]
    private var outcomes: [RowOutcome] = []
    /// Rows that need a log-in follow-up (update, or checking an uncertain "exists").
    private(set) var followUps: [Int] = []
    /// Rows created with profile columns still to set.
    private(set) var profileFollowUps: [Int] = []
    /// Rows whose add-user went out on a stream that dropped unanswered: the batch logs into
    /// each before sending it again (BatchRunner). Sent again at once, one the first request had
    /// made met `conflict`, and ejabberd (23.01 and 24.12) then keeps the account unusable in its
    /// auth cache, so the log-in that checks it failed for an hour (docs/DESIGN-NOTES.md).
    private(set) var checkFirst: [Int] = []
    private var everConnected = false
    private var lastProgress = ContinuousClock.now
    private var lastReason: String?
    private var throttledUntil = ContinuousClock.now
    private var throttles = 0
    private var targets: [String: JID?] = [:]

    init(items: [WorkItem], mode: BatchMode, invite: Bool = false, settings: RegistrationEngine.Settings, recorder: BatchRecorder,
         spread: EndpointSpread? = nil, connect: @escaping (_ stream: Int) throws -> PolledConnection) {
        self.items = items
        self.mode = mode
        self.invite = invite
        command = AdminEngine.command(for: mode)
        self.settings = settings
        self.recorder = recorder
        self.connect = connect
        self.spread = spread
        rows = RowQueue(count: items.count)
        slots = (0..<max(1, min(settings.jobs, items.count))).map { AdminSlot(stream: $0) }
    }

    /// Whether an unanswered request for `item` is checked by logging in before it is sent again
    /// (`checkFirst`): add-user rows with their password known. Invites make no account to log into.
    static func logsInBeforeResending(_ item: WorkItem, mode: BatchMode, invite: Bool) -> Bool {
        mode == .create && !invite && item.password != nil
    }

    /// The XEP-0133 command a batch mode runs.
    static func command(for mode: BatchMode) -> ServiceAdministration.Command {
        switch mode {
        case .create: return .addUser
        case .delete: return .deleteUser
        case .passwd: return .changeUserPassword
        }
    }

    /// The work items, with what this run learned.
    var workItems: [WorkItem] { items }

    /// Runs until every row has an outcome or a follow-up, or until interrupted. An
    /// administrator the server does not let run the command ends the run (`AdHocError.forbidden`).
    func run() throws -> BatchEnd {
        defer {
            try? flush()
            for slot in slots { slot.reset() }
        }
        var drainDeadline: ContinuousClock.Instant?
        lastProgress = .now
        while true {
            let now = ContinuousClock.now
            if settings.shouldStop() && drainDeadline == nil { drainDeadline = now + .seconds(3) }
            if drainDeadline == nil { try fill(now) }
            try flush()
            let inFlight = slots.reduce(0) { $0 + $1.inFlight.count }
            if !hasQueued && inFlight == 0 { return .completed }
            if let d = drainDeadline, inFlight == 0 || now >= d { return .interrupted }
            if now - lastProgress > settings.giveUpAfter {
                throw BatchError.noProgress(seconds: settings.giveUpAfter.components.seconds, reason: lastReason, throttled: throttles > 0)
            }
            try pollOnce(until: nextWake(now))
            expire(ContinuousClock.now)
        }
    }

    // MARK: - Sending

    private var hasQueued: Bool { rows.hasQueued }

    private func dequeue() -> Int? { rows.next() }

    /// The values of `item`'s command; a generated password is made (and returned) only now.
    private func values(_ index: Int) -> (values: [String: [String]], generated: String?) {
        let item = items[index]
        switch mode {
        case .create:
            let password = item.password ?? BatchInput.generatePassword()
            return (ServiceAdministration.values(for: command, account: item.row.jid, password: password),
                    item.password == nil ? password : nil)
        case .passwd:
            let password = item.newPassword ?? BatchInput.generatePassword()
            return (ServiceAdministration.values(for: command, account: item.row.jid, password: password),
                    item.newPassword == nil ? password : nil)
        case .delete:
            return (ServiceAdministration.values(for: command, account: item.row.jid), nil)
        }
    }

    private func fill(_ now: ContinuousClock.Instant) throws {
        guard now >= throttledUntil else { return }
        // Every slot's new requests are marked sent in one journal transaction (one fsync), then sent.
        var ready: [(slot: AdminSlot, link: PolledConnection, batch: [(id: String, item: Int, element: XMLElement)])] = []
        var sentLines: [Int] = []
        var generated: [Int: String] = [:]
        for slot in slots where hasQueued && now >= slot.notBefore {
            if slot.link == nil { try open(slot, now) }
            guard case .ready(let template) = slot.state, let link = slot.link else { continue }
            var batch: [(id: String, item: Int, element: XMLElement)] = []
            while slot.inFlight.count + batch.count < settings.window, let index = dequeue() {
                if invite {
                    let id = link.connection.makeID()
                    batch.append((id, index, AdHocService.request(id: id, to: target(index), .execute(node)).element))
                    continue
                }
                let (values, fresh) = values(index)
                let form: DataForm
                do { form = try ServiceAdministration.answer(template, values: values) } catch {
                    outcomes.append(outcome(index, .failed, error: "the server's \(command.rawValue) form: \(error)"))
                    continue
                }
                if let fresh {
                    if mode == .passwd { items[index].newPassword = fresh } else { items[index].password = fresh }
                    generated[items[index].row.line] = fresh
                }
                let id = link.connection.makeID()
                let iq = AdHocService.request(id: id, to: target(index), .execute(command.node, form: form))
                batch.append((id, index, iq.element))
                slot.values[index] = values
            }
            guard !batch.isEmpty else { continue }
            sentLines += batch.map { items[$0.item].row.line }
            ready.append((slot, link, batch))
        }
        guard !ready.isEmpty else { return }
        try recorder.markSent(lines: sentLines, generated: generated)
        for (slot, link, batch) in ready {
            if slot.inFlight.isEmpty { slot.lastActivity = now }
            for entry in batch {
                items[entry.item].attempts += 1
                slot.inFlight[entry.id] = AdminSlot.Request(item: entry.item, stage: 1)
            }
            do { try link.send(batch.map(\.element)) } catch { fail(slot, error, now) }
        }
    }

    /// The domain a row's command is addressed to, parsed once per domain (a JID parse runs
    /// PRECIS and IDNA, the costliest step of a row; docs/DESIGN-NOTES.md "Batch").
    private func target(_ index: Int) -> JID? {
        let domain = items[index].row.jid.domain
        if let known = targets[domain] { return known }
        let parsed = try? JID(domain)
        targets[domain] = parsed
        return parsed
    }

    private func open(_ slot: AdminSlot, _ now: ContinuousClock.Instant) throws {
        do {
            let link = try connect(slot.stream)
            slot.link = link
            everConnected = true
            let id = link.connection.makeID()
            if invite {
                // Running create-account makes an invite: there is no form to learn first.
                slot.state = .ready(DataForm(type: "form", fields: []))
                return
            }
            slot.state = .awaitingForm(id: id, deadline: .now + settings.timeout)
            let server = try? JID(link.connection.domain)
            try link.send([AdHocService.request(id: id, to: server, .execute(command.node)).element])
        } catch let error as ConnectionError {
            if !error.isTransient || (!everConnected && error.isUnreachable) || error.isAuthRejection { throw error }
            fail(slot, error, now)
        }
    }

    // MARK: - Receiving

    private func pollOnce(until wake: ContinuousClock.Instant) throws {
        let live = slots.filter { $0.link != nil }
        try StreamPoller.wait(on: live.compactMap(\.link), until: wake) { index, elements, failure in
            let slot = live[index]
            let link = slot.link
            for element in elements { try handle(element, on: slot) }
            if let failure, slot.link === link { fail(slot, failure, .now) }
        }
    }

    private func handle(_ element: XMLElement, on slot: AdminSlot) throws {
        guard element.name == "iq" else { return }
        // The `to` of a reply is this stream's own full JID, which nothing here reads; not
        // parsing it (PRECIS on the user and resource) was 7 % of the client's CPU per row (perf).
        var addressed = element
        addressed.attributes.removeAll { $0.name == "to" && $0.namespace == nil }
        let reply: Iq
        do { reply = try Iq(element: addressed) } catch {
            if slot.awaits(element[attribute: "id"]) { fail(slot, .badStanza(error), .now) }
            return
        }
        guard reply.type == .result || reply.type == .error else { return }
        if case .awaitingForm(let formID, _) = slot.state, reply.id == formID {
            try takeForm(reply, slot)
            return
        }
        guard let request = slot.inFlight.removeValue(forKey: reply.id) else { return }
        slot.lastActivity = .now
        let index = request.item
        if let error = reply.error {
            try handleError(error, index: index, slot: slot)
            return
        }
        let answer: AdHocCommand
        do { answer = try AdHocService.command(in: reply, answering: .execute(node)) } catch {
            outcomes.append(outcome(index, .failed, error: error.description))
            return
        }
        if answer.status == .executing {
            guard request.stage < AdHocService.maxStages, let link = slot.link else {
                outcomes.append(outcome(index, .failed, error: "\(command.rawValue) still asked for more after \(request.stage) stages"))
                return
            }
            // The server showed its form instead of taking ours with `execute`: answer it.
            var form: DataForm?
            if let shown = answer.form {
                do { form = try ServiceAdministration.answer(shown, values: slot.values[index] ?? [:]) } catch {
                    outcomes.append(outcome(index, .failed, error: "the server's \(command.rawValue) form: \(error)"))
                    return
                }
            }
            let id = link.connection.makeID()
            slot.inFlight[id] = AdminSlot.Request(item: index, stage: request.stage + 1)
            let iq = AdHocService.request(id: id, to: target(index), .proceed(answer, action: answer.forwardAction, form: form))
            do { try link.send([iq.element]) } catch { fail(slot, error, .now) }
            return
        }
        slot.failures = 0
        throttles = 0
        lastProgress = .now
        if invite { return try recordInvite(answer, index) }
        do {
            try AdHocService.checkCompleted(answer)
        } catch {
            guard let known = AdminService.outcome(of: error, command) else {
                outcomes.append(outcome(index, .failed, error: error.description))
                return
            }
            return record(known, index)
        }
        record(AdminService.outcome(of: answer, command), index)
    }

    private func handleError(_ error: StanzaError, index: Int, slot: AdminSlot) throws {
        switch AdHocService.refusal(error, node: node, firstStage: invite) {
        case .forbidden: throw AdHocError.forbidden(node: node, error)
        case .notOffered(let n, let e): throw AdHocError.notOffered(node: n, e)
        default: break
        }
        if error.isThrottle {
            throttles += 1
            throttledUntil = max(throttledUntil, .now + settings.backoff.delay(failures: throttles))
            items[index].attempts -= 1
            lastReason = "throttled by the server (" + error.description + ")"
            requeue(index, because: lastReason ?? "", uncertainNow: items[index].uncertain, journal: true)
            return
        }
        lastProgress = .now
        if let known = AdminService.outcome(of: .connection(.stanzaError(error)), command) { return record(known, index) }
        outcomes.append(outcome(index, .failed, error: error.description))
    }

    /// An invite's URI (and landing page) goes into the journal's secret column, then the row is `invited`.
    private func recordInvite(_ answer: AdHocCommand, _ index: Int) throws {
        guard answer.status == .completed, let uri = answer.form?.field("uri")?.values.first, !uri.isEmpty else {
            let why = answer.errorText ?? "the server's answer holds no invite URI"
            outcomes.append(outcome(index, .failed, error: why))
            return
        }
        let domain = items[index].row.jid.domain
        guard let secret = InviteSecret(checking: uri, landingPage: answer.form?.field("landing-url")?.values.first, domain: domain) else {
            outcomes.append(outcome(index, .failed, error: "the server's answer holds no xmpp: invite URI for \(domain)"))
            return
        }
        try flush()
        try recorder.markSent(lines: [items[index].row.line], generated: [items[index].row.line: secret.journalText])
        let expires = answer.form?.field("expire")?.values.first
        outcomes.append(outcome(index, .invited, note: expires.map { "valid until " + $0 }))
    }

    /// The row's outcome for what the server did.
    private func record(_ result: AdminService.Outcome, _ index: Int) {
        let item = items[index]
        switch (mode, result) {
        case (.create, .done):
            let profile = ProfileStep.afterRegistration(item.row, sentFields: [:])
            if case .pending? = profile {
                outcomes.append(outcome(index, .registered, profile: profile, note: BatchPlan.recreatedNote(item)))
                profileFollowUps.append(index)
            } else {
                outcomes.append(outcome(index, .created, profile: profile, note: BatchPlan.recreatedNote(item)))
            }
            if item.source == .csv { outcomes[outcomes.count - 1].csvPasswordSet = true }
        case (.create, _):
            if item.uncertain || settings.onExists == .update {
                outcomes.append(outcome(index, .conflict))
                followUps.append(index)
            } else if settings.onExists == .fail {
                outcomes.append(outcome(index, .exists, error: "the account already exists (--on-exists fail)"))
            } else {
                outcomes.append(outcome(index, .exists))
            }
        case (.delete, .noSuchAccount) where !item.uncertain:
            outcomes.append(outcome(index, .deleted, note: "no such account"))
        case (.delete, _):
            outcomes.append(outcome(index, .deleted))
        case (.passwd, .done):
            var changed = outcome(index, .changed)
            changed.csvPasswordSet = item.source == .csv
            outcomes.append(changed)
        case (.passwd, _):
            outcomes.append(outcome(index, .failed, error: "no such account"))
        }
    }

    /// The stream's form for the command, learned once; its session is cancelled at once (the
    /// answer to that is ignored). Not permitted, or a command the server does not offer, ends the run.
    private func takeForm(_ reply: Iq, _ slot: AdminSlot) throws {
        lastProgress = .now
        if let error = reply.error {
            if error.isThrottle { fail(slot, .stanzaError(error), .now); return }
            throw AdHocService.refusal(error, node: command.node)
        }
        let answer = try AdHocService.command(in: reply, answering: .execute(command.node))
        guard answer.status == .executing, let form = answer.form else {
            throw AdHocError.invalidReply(.invalidContent("\(command.node) answered without a form to fill in"))
        }
        if let link = slot.link {
            let id = link.connection.makeID()
            do { try link.send([AdHocService.request(id: id, to: try? JID(link.connection.domain), .cancel(answer)).element]) } catch {
                fail(slot, error, .now)
                return
            }
        }
        slot.state = .ready(form)
    }

    // MARK: - Failures and timing

    private func fail(_ slot: AdminSlot, _ error: ConnectionError, _ now: ContinuousClock.Instant) {
        lastReason = error.description
        let (unanswered, note) = EngineStreams.drop(slot, after: error, now: now, backoff: settings.backoff, spread: spread)
        if let note { recorder.note(note) }
        for index in unanswered {
            if AdminEngine.logsInBeforeResending(items[index], mode: mode, invite: invite) {
                items[index].uncertain = true
                checkFirst.append(index)
            } else {
                requeue(index, because: error.description, uncertainNow: true, journal: false)
            }
        }
    }

    private func requeue(_ index: Int, because reason: String, uncertainNow: Bool, journal: Bool) {
        if let outcome = rows.putBack(index, items: &items, because: reason, uncertainNow: uncertainNow, journal: journal,
                                      maxAttempts: settings.maxAttempts) {
            outcomes.append(outcome)
        }
    }

    private func expire(_ now: ContinuousClock.Instant) {
        for slot in EngineStreams.expired(slots, now: now, timeout: settings.timeout) {
            fail(slot, .timedOut("waiting for the server's answer"), now)
        }
    }

    private func nextWake(_ now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        EngineStreams.nextWake(slots, now: now, hasQueued: hasQueued, throttledUntil: throttledUntil, timeout: settings.timeout)
    }

    private func flush() throws {
        guard !outcomes.isEmpty else { return }
        let batch = outcomes
        outcomes = []
        try recorder.commit(batch)
    }

    private func outcome(_ index: Int, _ status: JournalStatus, error: String? = nil, retryable: Bool = false,
                         profile: ProfileState? = nil, note: String? = nil) -> RowOutcome {
        RowOutcome(line: items[index].row.line, jid: items[index].row.jid.description, status: status, error: error,
                   retryable: retryable, uncertain: items[index].uncertain, profile: profile, note: note)
    }
}

/// One authenticated administrator stream of the admin engine.
final class AdminSlot: EngineSlot {
    enum State {
        case idle
        /// The first execute (to learn the form) is out.
        case awaitingForm(id: String, deadline: ContinuousClock.Instant)
        /// The form is known: rows may be sent.
        case ready(DataForm)
    }

    /// A row's request waiting for its reply, at which stage of the command.
    struct Request {
        var item: Int
        var stage: Int
    }

    let stream: Int
    var state: State = .idle
    var link: PolledConnection?
    var inFlight: [String: Request] = [:]
    /// Each row's values, for a server that shows its form again.
    var values: [Int: [String: [String]]] = [:]
    var notBefore = ContinuousClock.now
    var failures = 0
    var lastActivity = ContinuousClock.now

    init(stream: Int) { self.stream = stream }

    var unansweredItems: [Int] { inFlight.values.map(\.item) }

    /// When this stream counts as dead (as `RegistrationSlot.deadline`).
    func deadline(timeout: Duration) -> ContinuousClock.Instant? {
        if case .awaitingForm(_, let d) = state { return d }
        return inFlight.isEmpty ? nil : lastActivity + timeout
    }

    func awaits(_ id: String?) -> Bool {
        guard let id else { return false }
        if case .awaitingForm(let formID, _) = state, formID == id { return true }
        return inFlight[id] != nil
    }

    func reset() {
        link?.close()
        link = nil
        state = .idle
        inFlight.removeAll()
        values.removeAll()
    }
}
