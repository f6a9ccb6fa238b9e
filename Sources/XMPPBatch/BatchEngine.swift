import XMLTree
import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// The batch's one request engine: many rows' requests of one kind (`RequestKind`) over `jobs`
/// streams, driven by one poll() loop. Each stream starts with the kind's handshake (a form
/// fetched once), then carries up to `window` pipelined requests. Streams are set up (TCP, TLS,
/// features) on the same loop (`PolledSetup`), so a slow endpoint holds up no other stream. Throttling pauses every
/// stream; a dropped stream is reopened with back-off and its unanswered rows go back to the
/// queue, marked uncertain (the server may have acted on them). No row is dropped: each ends
/// with an outcome, or stays in the journal.
final class BatchEngine<Kind: RequestKind> {
    let kind: Kind
    /// The rows, with what this run learned of them (passwords made, uncertainty, attempts).
    private(set) var items: [WorkItem]
    let settings: EngineSettings
    private let connect: (_ stream: Int) throws(ConnectionError) -> PolledSetup
    private let spread: EndpointSpread?
    let recorder: BatchRecorder
    private var rows: RowQueue
    private let streams: [EngineStream<Kind>]
    private var outcomes: [RowOutcome] = []
    /// Rows that need a log-in follow-up (update, or checking an uncertain `conflict`).
    private(set) var followUps: [Int] = []
    /// Rows created with profile columns still to set: the log-in phase finishes them.
    private(set) var profileFollowUps: [Int] = []
    private var everConnected = false
    private var lastProgress = ContinuousClock.now
    /// The latest reason streams or rows could not go on, for the give-up message.
    private var lastReason: String?
    /// Throttling is usually per client address, so it pauses every stream: nothing is sent
    /// before this, and `throttles` (in a row) sets how long the next pause is.
    private var throttledUntil = ContinuousClock.now
    private var throttles = 0
    /// Requests in flight per stream: `settings.window`, or 1 once the server skipped answers.
    private(set) var window: Int
    /// The server refused every request alike (registration closed to this client): nothing
    /// more is sent, the answers to what is in flight are awaited (3 s at most, as for Ctrl-C)
    /// so each of those rows is known refused or created, and then the run ends with this error.
    private var closedBy: (any Error)?

    /// `connect` starts setting up stream number `stream`'s connection (opened, and for admin
    /// commands logged in as the administrator); `spread`, when the batch has several
    /// endpoints, hears of streams that answer and drop.
    init(kind: Kind, items: [WorkItem], settings: EngineSettings, recorder: BatchRecorder, spread: EndpointSpread? = nil,
         connect: @escaping (_ stream: Int) throws(ConnectionError) -> PolledSetup) {
        self.kind = kind
        self.items = items
        self.settings = settings
        self.recorder = recorder
        self.connect = connect
        self.spread = spread
        rows = RowQueue(count: items.count)
        window = max(1, settings.window)
        streams = (0..<max(1, min(settings.jobs, items.count))).map { EngineStream(index: $0) }
    }

    /// Runs until every row has an outcome or a follow-up, or until interrupted (the requests
    /// in flight are awaited for up to 3 s).
    func run() throws -> BatchEnd {
        defer {
            try? flush()  // even on a fatal error, record what was learned
            for stream in streams { stream.reset() }
        }
        var drainDeadline: ContinuousClock.Instant?
        lastProgress = .now
        while true {
            let now = ContinuousClock.now
            if (settings.shouldStop() || closedBy != nil) && drainDeadline == nil { drainDeadline = now + .seconds(3) }
            if drainDeadline == nil { try fill(now) }
            try flush()
            let inFlight = streams.reduce(0) { $0 + $1.inFlight.count }
            if let closedBy, inFlight == 0 || now >= (drainDeadline ?? now) { throw closedBy }
            if !rows.hasQueued && inFlight == 0 { return .completed }
            if let d = drainDeadline, inFlight == 0 || now >= d { return .interrupted }
            if now - lastProgress > settings.giveUpAfter {
                throw BatchError.noProgress(seconds: settings.giveUpAfter.components.seconds, reason: lastReason, throttled: throttles > 0)
            }
            try pollOnce(until: nextWake(now))
            try expire(ContinuousClock.now)
        }
    }

    // MARK: - What kinds call

    /// Records row `index`'s outcome (committed to the journal at the next flush).
    func record(_ index: Int, _ status: JournalStatus, error: String? = nil, retryable: Bool = false,
                profile: ProfileState? = nil, note: String? = nil, csvPasswordSet: Bool = false) {
        var outcome = RowOutcome(line: items[index].row.line, jid: items[index].row.jid.description, status: status,
                                 error: error, retryable: retryable, uncertain: items[index].uncertain, profile: profile,
                                 note: note)
        outcome.csvPasswordSet = csvPasswordSet
        outcomes.append(outcome)
    }

    /// The server refused row `index` as it refuses every request (registration closed to this
    /// client): the row stays to do and its generated password is dropped (unless an earlier
    /// unanswered request may have set it), and the run ends with `error` once the requests in
    /// flight are answered.
    func stopAfterInFlight(refusing index: Int, because error: any Error) {
        var outcome = RowOutcome(line: items[index].row.line, jid: items[index].row.jid.description, status: .pending,
                                 uncertain: items[index].uncertain)
        outcome.refusedByServer = true
        outcomes.append(outcome)
        if closedBy == nil { closedBy = error }
    }

    /// An account made for row `index`: created, or registered with its profile left to the
    /// log-in phase. Counted as created even if the run stops before the profile is set.
    func recordCreated(_ index: Int, sentFields: [String: String]) {
        let item = items[index]
        let profile = ProfileStep.afterRegistration(item.row, sentFields: sentFields)
        let fromCSV = item.source == .csv
        let note = BatchPlan.recreatedNote(item)
        if case .pending? = profile {
            record(index, .registered, profile: profile, note: note, csvPasswordSet: fromCSV)
            profileFollowUps.append(index)
        } else {
            record(index, .created, profile: profile, note: note, csvPasswordSet: fromCSV)
        }
    }

    /// Row `index`'s account exists already: a conflict to check by logging in (the row is
    /// uncertain, or `--on-exists update`), a failure (`--on-exists fail`), or done.
    func recordExists(_ index: Int) {
        if items[index].uncertain || settings.onExists == .update {
            record(index, .conflict)
            followUps.append(index)
        } else if settings.onExists == .fail {
            record(index, .exists, error: "the account already exists (--on-exists fail)")
        } else {
            record(index, .exists)
        }
    }

    /// The server answered for a row: the run is moving, and `stream` is healthy.
    func progressed(_ stream: EngineStream<Kind>) {
        stream.failures = 0
        throttles = 0
        lastProgress = .now
    }

    /// The server answered without throttling (a refusal is progress too: the row is done).
    func answered() { lastProgress = .now }

    /// The server throttles: every stream pauses, and row `index` goes back to the queue. Not a
    /// failure of the row: the attempt does not count, and only `giveUpAfter` without any
    /// success ends the run (the rows stay resumable).
    func throttle(_ index: Int, _ error: StanzaError) {
        throttles += 1
        throttledUntil = max(throttledUntil, .now + settings.backoff.delay(failures: throttles))
        items[index].attempts -= 1
        let reason = "throttled by the server (" + error.description + ")"
        lastReason = reason
        requeue(index, because: reason, uncertainNow: items[index].uncertain, journal: true)
    }

    /// Puts a row back in the queue, or fails it (retryable) after too many attempts.
    func requeue(_ index: Int, because reason: String, uncertainNow: Bool, journal: Bool) {
        if let outcome = rows.putBack(index, items: &items, because: reason, uncertainNow: uncertainNow, journal: journal,
                                      maxAttempts: settings.maxAttempts) {
            outcomes.append(outcome)
        }
    }

    /// Marks row `index` uncertain without requeueing it (the kind checks it another way).
    func setUncertain(_ index: Int) { items[index].uncertain = true }

    /// Sets a row's password (or, for a password change, its new one) made for this run.
    func setPassword(_ password: String, of index: Int, newPassword: Bool = false) {
        if newPassword { items[index].newPassword = password } else { items[index].password = password }
    }

    /// Sends the next stage of row `request.item`'s multi-stage command on `stream`.
    func sendNextStage(_ element: XMLElement, id: String, after request: InFlightRequest, on stream: EngineStream<Kind>) {
        guard let link = stream.link else { return }
        stream.inFlight[id] = InFlightRequest(item: request.item, sequence: stream.sent, stage: request.stage + 1)
        stream.sent += 1
        do { try link.send([element]) } catch { fail(stream, error, .now) }
    }

    /// From now on one request at a time per stream (the server drops answers to pipelined
    /// requests); `note` says so once.
    func stopPipelining(note: String) {
        guard window > 1 else { return }
        window = 1
        recorder.note(note)
    }

    /// Writes the outcomes so far to the journal.
    func flush() throws {
        guard !outcomes.isEmpty else { return }
        let batch = outcomes
        outcomes = []
        try recorder.commit(batch)
    }

    // MARK: - Sending

    /// Opens streams whose back-off ended and fills every ready stream's window. Every new
    /// request is marked sent in one journal transaction (one fsync), with the passwords made
    /// for it, before any of them leaves.
    private func fill(_ now: ContinuousClock.Instant) throws {
        guard now >= throttledUntil else { return }
        var ready: [(stream: EngineStream<Kind>, link: PolledConnection, batch: [(id: String, item: Int, element: XMLElement)])] = []
        var sentLines: [Int] = []
        var generated: [Int: String] = [:]
        for stream in streams where rows.hasQueued && now >= stream.notBefore {
            if kind.recyclesStreams, stream.link != nil, now - stream.openedAt > settings.maxStreamAge {
                guard stream.inFlight.isEmpty else { continue }  // send nothing more; let it drain
                stream.reset()
            }
            if stream.link == nil && stream.setup == nil { try open(stream, now) }
            guard case .ready(let handshake) = stream.state, let link = stream.link else { continue }
            var batch: [(id: String, item: Int, element: XMLElement)] = []
            while stream.inFlight.count + batch.count < window, let index = rows.next() {
                let id = link.connection.makeID()
                switch try kind.request(index, id: id, handshake: handshake, engine: self) {
                case .send(let element, let fresh):
                    if let fresh { generated[items[index].row.line] = fresh }
                    batch.append((id, index, element))
                case .failed(let reason):
                    record(index, .failed, error: reason)
                }
            }
            guard !batch.isEmpty else { continue }
            sentLines += batch.map { items[$0.item].row.line }
            ready.append((stream, link, batch))
        }
        guard !ready.isEmpty else { return }
        try recorder.markSent(lines: sentLines, generated: generated)
        for (stream, link, batch) in ready {
            if stream.inFlight.isEmpty { stream.lastActivity = now }
            for entry in batch {
                items[entry.item].attempts += 1
                stream.inFlight[entry.id] = InFlightRequest(item: entry.item, sequence: stream.sent, stage: 1)
                stream.sent += 1
            }
            do { try link.send(batch.map(\.element)) } catch { fail(stream, error, now) }
        }
    }

    /// Starts setting up `stream`'s connection; the loop takes it on as the socket allows.
    private func open(_ stream: EngineStream<Kind>, _ now: ContinuousClock.Instant) throws {
        do {
            stream.setup = try connect(stream.index)
        } catch {
            try failedOpening(stream, error, now)
        }
    }

    /// Takes `stream`'s setup as far as the socket allows (or, `expired`, past its deadline);
    /// once set up, the stream sends its kind's handshake.
    private func advanceSetup(_ stream: EngineStream<Kind>, expired: Bool = false) throws {
        guard let setup = stream.setup else { return }
        do {
            if expired { try setup.expire() }
            guard let link = try setup.advance() else { return }
            stream.setup = nil
            spread?.bound(link)
            stream.link = link
            stream.openedAt = .now
            everConnected = true
            let id = link.connection.makeID()
            switch kind.begin(on: link, id: id) {
            case .ready(let handshake):
                stream.state = .ready(handshake)
            case .request(let element):
                stream.state = .awaitingHandshake(id: id, deadline: .now + settings.timeout)
                try link.send([element])
            }
        } catch let error as ConnectionError {
            stream.setup = nil
            try failedOpening(stream, error, .now)
        }
    }

    /// A stream that could not be set up: the run ends on an error no other attempt would mend,
    /// else the stream backs off and tries again.
    private func failedOpening(_ stream: EngineStream<Kind>, _ error: ConnectionError, _ now: ContinuousClock.Instant) throws {
        if !error.isTransient || (!everConnected && error.isUnreachable) || kind.endsRun(opening: error) { throw error }
        fail(stream, error, now)
    }

    // MARK: - Receiving

    private func pollOnce(until wake: ContinuousClock.Instant) throws {
        let live = streams.filter { $0.link != nil || $0.setup != nil }
        let watches = live.map { stream in
            if let setup = stream.setup { return StreamPoller.Watch(setup.fileDescriptor, write: setup.wantsWrite) }
            return StreamPoller.Watch(stream.link?.fileDescriptor ?? -1)
        }
        for index in StreamPoller.ready(watches, until: wake) {
            let stream = live[index]
            if stream.setup != nil {
                try advanceSetup(stream)
                continue
            }
            guard let link = stream.link else { continue }
            var elements: [XMLElement] = []
            var failure: ConnectionError?
            do { try link.readAvailable(into: &elements) } catch { failure = error }
            for element in elements { try handle(element, on: stream) }
            if let failure, stream.link === link { fail(stream, failure, .now) }
        }
        // A log-in that ended gives the turn to the next stream waiting for the account's session.
        for stream in streams where stream.setup?.awaitsTurn == true { try advanceSetup(stream) }
    }

    private func handle(_ element: XMLElement, on stream: EngineStream<Kind>) throws {
        guard element.name == "iq" else { return }
        // The `to` of a reply is this stream's own full JID, which nothing here reads; not
        // parsing it (PRECIS on the user and resource) was 7 % of the client's CPU per row (perf).
        var addressed = element
        addressed.attributes.removeAll { $0.name == "to" && $0.namespace == nil }
        let reply: Iq
        do { reply = try Iq(element: addressed) } catch {
            // An answer to one of ours that is not a valid IQ breaks the stream, as it would a
            // blocking request (`Connection.awaitReply`); other odd stanzas are not ours.
            if stream.awaits(element[attribute: "id"]) { fail(stream, .badStanza(error), .now) }
            return
        }
        guard reply.type == .result || reply.type == .error else { return }
        if case .awaitingHandshake(let handshakeID, _) = stream.state, reply.id == handshakeID {
            try takeHandshake(reply, stream)
            return
        }
        guard let request = stream.inFlight.removeValue(forKey: reply.id) else { return }
        stream.lastActivity = .now
        try kind.reply(reply, to: request, on: stream, engine: self)
    }

    private func takeHandshake(_ reply: Iq, _ stream: EngineStream<Kind>) throws {
        lastProgress = .now
        guard let link = stream.link else { return }
        switch try kind.handshake(from: reply, on: link) {
        case .throttled(let error):
            fail(stream, .stanzaError(error), .now)
        case .ready(let handshake, let then):
            if !then.isEmpty {
                do { try link.send(then) } catch {
                    fail(stream, error, .now)
                    return
                }
            }
            stream.state = .ready(handshake)
        }
    }

    // MARK: - Failures and timing

    /// Drops `stream` after `error`: what was in flight may have reached the server, so the
    /// kind puts it back (uncertain) or checks it; the stream reconnects after a back-off, and
    /// its endpoint backs off too while others are left.
    func fail(_ stream: EngineStream<Kind>, _ error: ConnectionError, _ now: ContinuousClock.Instant) {
        lastReason = error.description
        let unanswered = stream.inFlight.values.map(\.item).sorted()
        let endpoint = stream.link?.connection.endpoint
        stream.reset()
        stream.failures += 1
        stream.notBefore = now + settings.backoff.delay(failures: stream.failures)
        // A throttled handshake is the server answering (and throttling is usually per client
        // address, so every endpoint would say the same): the endpoint did not fail.
        var endpointFailed = true
        if case .stanzaError = error { endpointFailed = false }
        if endpointFailed, let endpoint, let spread, spread.count > 1, spread.lost(endpoint) {
            recorder.note("\(endpoint.host):\(endpoint.port) failed (\(error)): backing off; its streams move to the other "
                          + "endpoints, and the rows in flight on them are sent again there")
        }
        for index in unanswered { kind.unanswered(index, after: error, engine: self) }
    }

    private func expire(_ now: ContinuousClock.Instant) throws {
        for stream in streams {
            if let setup = stream.setup {
                if setup.deadline <= now { try advanceSetup(stream, expired: true) }
            } else if stream.deadline(timeout: settings.timeout).map({ $0 <= now }) ?? false {
                fail(stream, .timedOut("waiting for the server's answer"), now)
            }
        }
    }

    /// When the poll loop must look again: a deadline, the end of a back-off, at most 1 s.
    private func nextWake(_ now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        var wake = now + .seconds(1)
        let hasQueued = rows.hasQueued
        if hasQueued && throttledUntil > now { wake = min(wake, throttledUntil) }
        for stream in streams {
            if let d = stream.setup?.deadline ?? stream.deadline(timeout: settings.timeout) { wake = min(wake, d) }
            if hasQueued && stream.notBefore > now { wake = min(wake, stream.notBefore) }
        }
        return wake
    }
}
