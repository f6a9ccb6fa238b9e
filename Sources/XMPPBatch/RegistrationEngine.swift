import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// Registers many accounts on one domain over `jobs` unauthenticated TLS streams, driven by one
/// poll() loop: each stream fetches the form once and then carries up to `window` pipelined
/// registrations. Throttling backs the stream off; a dropped stream is reopened with back-off
/// and its unanswered rows are sent again, marked uncertain (a `conflict` for them is checked
/// by logging in later). No row is dropped: each ends with an outcome, or stays in the journal.
/// A server that answers a later request of a stream while earlier ones wait (jabberd2 2.7
/// answers only the last of several pipelined registrations, though it creates every account)
/// gets one request at a time from then on; the skipped rows are sent again, uncertain.
final class RegistrationEngine {
    /// Tuning and policy.
    struct Settings {
        var jobs = 4
        var window = 4
        var timeout: Duration = .seconds(15)
        /// Requests per row in one run before it is reported failed (retryable).
        var maxAttempts = 10
        /// Stop when nothing moved for this long (the rows stay resumable).
        var giveUpAfter: Duration = .seconds(120)
        var onExists: ExistsPolicy = .skip
        /// Streams are replaced after this long: servers close unauthenticated streams after a
        /// while (Prosody's c2s_timeout, 300 s), and a planned close loses no request.
        var maxStreamAge: Duration = .seconds(240)
        var backoff = Backoff()
        /// Asked between steps: stop taking rows, await what is in flight (Ctrl-C, SIGTERM).
        var shouldStop: @Sendable () -> Bool = { false }
    }

    private var items: [WorkItem]
    private let settings: Settings
    private let connect: (_ stream: Int) throws(ConnectionError) -> PolledConnection
    private let spread: EndpointSpread?
    private let recorder: BatchRecorder
    private var rows: RowQueue
    private let slots: [RegistrationSlot]
    private var outcomes: [RowOutcome] = []
    /// Rows that need a log-in follow-up (update, or checking an uncertain `conflict`).
    private(set) var followUps: [Int] = []
    /// Rows created with profile columns still to set: the log-in phase finishes them.
    private(set) var profileFollowUps: [Int] = []
    private var everConnected = false
    private var lastProgress = ContinuousClock.now
    /// The latest reason streams or rows could not go on, for the give-up message.
    private var lastReason: String?
    /// Throttling is usually per client address, so it pauses every stream: no registration is
    /// sent before this, and `throttles` (in a row) sets how long the next pause is.
    private var throttledUntil = ContinuousClock.now
    private var throttles = 0
    /// Requests in flight per stream: `settings.window`, or 1 once the server skipped answers.
    private var window: Int

    /// `connect` opens stream number `stream`'s connection; `spread`, when the batch has several
    /// endpoints, hears of the streams that drop.
    init(items: [WorkItem], settings: Settings, recorder: BatchRecorder, spread: EndpointSpread? = nil,
         connect: @escaping (_ stream: Int) throws(ConnectionError) -> PolledConnection) {
        self.items = items
        self.settings = settings
        self.recorder = recorder
        self.connect = connect
        self.spread = spread
        rows = RowQueue(count: items.count)
        window = max(1, settings.window)
        slots = (0..<max(1, min(settings.jobs, items.count))).map { RegistrationSlot(stream: $0) }
    }

    /// The work items, with what this run learned (uncertainty, attempts).
    var workItems: [WorkItem] { items }

    /// Runs until every row has an outcome or a follow-up, or until interrupted.
    func run() throws -> BatchEnd {
        defer {
            try? flush()  // even on a fatal error, record what was learned
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
            if now - lastProgress > settings.giveUpAfter { throw giveUp() }
            try pollOnce(until: nextWake(now))
            expire(ContinuousClock.now)
        }
    }

    // MARK: - Sending

    private var hasQueued: Bool { rows.hasQueued }

    private func dequeue() -> Int? { rows.next() }

    private func fill(_ now: ContinuousClock.Instant) throws {
        guard now >= throttledUntil else { return }
        for slot in slots where hasQueued && now >= slot.notBefore {
            if slot.link != nil && now - slot.openedAt > settings.maxStreamAge {
                guard slot.inFlight.isEmpty else { continue }  // send nothing more; let it drain
                slot.reset()
            }
            if slot.link == nil { try open(slot, now) }
            guard case .ready = slot.state, let form = slot.form, let link = slot.link else { continue }
            var batch: [(id: String, item: Int, element: XMLElement)] = []
            var generated: [Int: String] = [:]
            while slot.inFlight.count + batch.count < window, let index = dequeue() {
                let item = items[index]
                let extra = ProfileStep.registrationFields(for: item.row, form: form)
                do {
                    // A password is generated only now that its row is sent; the journal has
                    // it (markSent) before the request leaves.
                    let password = item.password ?? BatchInput.generatePassword()
                    let id = link.connection.makeID()
                    let iq = try RegistrationService.registrationIq(id: id, form: form, username: item.row.jid.local ?? "",
                                                                    password: password, extra: extra)
                    if item.password == nil {
                        items[index].password = password
                        generated[item.row.line] = password
                    }
                    batch.append((id, index, iq.element))
                } catch {
                    guard case .missingField(let field) = error else { throw error }
                    outcomes.append(outcome(index, .failed, error: "the server's form requires '\(field)', which the CSV does not give"))
                }
            }
            guard !batch.isEmpty else { continue }
            try recorder.markSent(lines: batch.map { items[$0.item].row.line }, generated: generated)
            if slot.inFlight.isEmpty { slot.lastActivity = now }
            for entry in batch {
                items[entry.item].attempts += 1
                slot.inFlight[entry.id] = RegistrationSlot.Request(item: entry.item, sequence: slot.sent)
                slot.sent += 1
            }
            do { try link.send(batch.map(\.element)) } catch { fail(slot, error, now) }
        }
    }

    private func open(_ slot: RegistrationSlot, _ now: ContinuousClock.Instant) throws {
        do {
            let link = try connect(slot.stream)
            slot.link = link
            slot.openedAt = .now
            everConnected = true
            let id = link.connection.makeID()
            slot.state = .awaitingForm(id: id, deadline: .now + settings.timeout)
            try link.send([RegistrationService.formRequest(id: id).element])
        } catch {
            if !error.isTransient || (!everConnected && error.isUnreachable) { throw error }
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

    private func handle(_ element: XMLElement, on slot: RegistrationSlot) throws {
        guard element.name == "iq" else { return }
        let reply: Iq
        do { reply = try Iq(element: element) } catch {
            // An answer to one of ours that is not a valid IQ breaks the stream, as it would a
            // blocking request (`Connection.awaitReply`); other odd stanzas are not ours.
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
        stopPipeliningIfSkipped(before: request, on: slot)
        let index = request.item
        let item = items[index]
        guard let error = reply.error else {
            slot.failures = 0
            throttles = 0
            lastProgress = .now
            let sent = slot.form.map { ProfileStep.registrationFields(for: item.row, form: $0) } ?? [:]
            let profile = ProfileStep.afterRegistration(item.row, sentFields: sent)
            if case .pending? = profile {
                // Created, so counted as created even if the run stops here; the log-in phase
                // sets the profile and records the outcome (STEP 3).
                outcomes.append(outcome(index, .registered, profile: profile, note: BatchPlan.recreatedNote(item)))
                profileFollowUps.append(index)
            } else {
                outcomes.append(outcome(index, .created, profile: profile, note: BatchPlan.recreatedNote(item)))
            }
            if item.source == .csv { outcomes[outcomes.count - 1].csvPasswordSet = true }
            return
        }
        let verdict = ReplyClassifier.verdict(error)
        if verdict != .retry { lastProgress = .now }
        switch verdict {
        case .exists:
            slot.failures = 0
            throttles = 0
            if item.uncertain || settings.onExists == .update {
                outcomes.append(outcome(index, .conflict))
                followUps.append(index)
            } else if settings.onExists == .fail {
                outcomes.append(outcome(index, .exists, error: "the account already exists (--on-exists fail)"))
            } else {
                outcomes.append(outcome(index, .exists))
            }
        case .retry:
            // Throttling is not a failure of the row: the attempt does not count, and only
            // `giveUpAfter` without any success ends the run (the rows stay resumable).
            throttles += 1
            throttledUntil = max(throttledUntil, .now + settings.backoff.delay(failures: throttles))
            items[index].attempts -= 1
            lastReason = "throttled by the server (" + error.description + ")"
            requeue(index, because: lastReason ?? "", uncertainNow: item.uncertain, journal: true)
        case .refused:
            outcomes.append(outcome(index, .failed, error: ReplyClassifier.describe(error)))
        case .stop:
            // Not this row's fault: it stays to do, for --resume once registration is open to us.
            outcomes.append(outcome(index, .pending))
            throw RegistrationService.submissionRefusal(error, domain: slot.link?.connection.domain ?? "the server")
        }
    }

    /// An answer to a request while earlier ones of the same stream wait means the server drops
    /// answers to pipelined requests (it works through a stream's stanzas in order): waiting
    /// for them would only run into the timeout. The earlier ones are sent again, uncertain (the
    /// server may have created them: a `conflict` is checked by logging in), one at a time.
    private func stopPipeliningIfSkipped(before answered: RegistrationSlot.Request, on slot: RegistrationSlot) {
        let skipped = slot.inFlight.filter { $0.value.sequence < answered.sequence }
        guard !skipped.isEmpty else { return }
        for id in skipped.keys { slot.inFlight.removeValue(forKey: id) }
        if window > 1 {
            window = 1
            recorder.note("\(slot.link?.connection.domain ?? "the server") answered a later registration before earlier ones on the same stream (it drops answers to pipelined requests): sending one registration at a time per stream")
        }
        for index in skipped.values.map(\.item).sorted() {
            requeue(index, because: "the server skipped its answer", uncertainNow: true, journal: false)
        }
    }

    /// The stream's form, read and checked as `RegistrationService` does for a single request;
    /// throttling only delays this stream, any other refusal ends the run.
    private func takeForm(_ reply: Iq, _ slot: RegistrationSlot) throws {
        lastProgress = .now
        if let error = reply.error, error.isThrottle { fail(slot, .stanzaError(error), .now); return }
        let form = try RegistrationService.form(from: reply, domain: slot.link?.connection.domain ?? "the server")
        try RegistrationService.checkAnswerable(form)
        slot.form = form
        slot.state = .ready
    }

    // MARK: - Failures and timing

    /// Drops the stream: what was in flight may have reached the server, so it goes back to the
    /// queue marked uncertain; the stream reconnects after a back-off.
    private func fail(_ slot: RegistrationSlot, _ error: ConnectionError, _ now: ContinuousClock.Instant) {
        lastReason = error.description
        let (unanswered, note) = EngineStreams.drop(slot, after: error, now: now, backoff: settings.backoff, spread: spread)
        if let note { recorder.note(note) }
        for index in unanswered {
            requeue(index, because: error.description, uncertainNow: true, journal: false)
        }
    }

    /// Puts a row back in the queue, or fails it (retryable) after too many attempts.
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

    private func giveUp() -> BatchError {
        .noProgress(seconds: settings.giveUpAfter.components.seconds, reason: lastReason, throttled: throttles > 0)
    }

    private func outcome(_ index: Int, _ status: JournalStatus, error: String? = nil, retryable: Bool = false,
                         profile: ProfileState? = nil, note: String? = nil) -> RowOutcome {
        RowOutcome(line: items[index].row.line, jid: items[index].row.jid.description, status: status, error: error,
                   retryable: retryable, uncertain: items[index].uncertain, profile: profile, note: note)
    }
}
