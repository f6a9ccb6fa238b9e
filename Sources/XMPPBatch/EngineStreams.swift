import XMPPConnection
import XMPPStorage

/// What the two poll-loop engines (registration, admin commands) keep per stream alike.
protocol EngineSlot: AnyObject {
    /// Which of the engine's streams this is (0..<jobs): it picks the home endpoint.
    var stream: Int { get }
    var link: PolledConnection? { get }
    /// No connecting or sending before this.
    var notBefore: ContinuousClock.Instant { get set }
    /// Failures in a row, for the back-off.
    var failures: Int { get set }
    /// The rows whose requests are in flight.
    var unansweredItems: [Int] { get }
    /// When the stream counts as dead, if it waits for anything.
    func deadline(timeout: Duration) -> ContinuousClock.Instant?
    /// Forgets the connection and what was in flight.
    func reset()
}

/// The rows an engine has still to send: the plan's rows in order, and rows put back after a
/// throttle or a dropped stream, which go first.
struct RowQueue {
    private var queue: [Int]
    private var head = 0
    private var retry: [Int] = []

    init(count: Int) { queue = Array(0..<count) }

    var hasQueued: Bool { head < queue.count || !retry.isEmpty }

    mutating func next() -> Int? {
        if !retry.isEmpty { return retry.removeFirst() }
        guard head < queue.count else { return nil }
        head += 1
        return queue[head - 1]
    }

    /// Puts `index` back (`uncertainNow`: an earlier request may have reached the server), or,
    /// after `maxAttempts` requests, fails it (retryable). Returns the outcome to record, if any:
    /// the failure, or, for a definitive "not now" answer (`journal`), the row pending again (a
    /// dropped request stays `sent` in the journal, so its password is kept).
    mutating func putBack(_ index: Int, items: inout [WorkItem], because reason: String, uncertainNow: Bool,
                          journal: Bool, maxAttempts: Int) -> RowOutcome? {
        items[index].uncertain = uncertainNow
        let item = items[index]
        func outcome(_ status: JournalStatus, _ error: String?, retryable: Bool) -> RowOutcome {
            RowOutcome(line: item.row.line, jid: item.row.jid.description, status: status, error: error,
                       retryable: retryable, uncertain: item.uncertain)
        }
        if item.attempts >= maxAttempts {
            return outcome(.failed, "gave up after \(item.attempts) attempts: \(reason)", retryable: true)
        }
        retry.append(index)
        return journal ? outcome(.pending, nil, retryable: false) : nil
    }
}

/// The stream bookkeeping both engines share: opening a stream on its endpoint, dropping it
/// (back-off for the stream and its endpoint), timeouts and the next wake-up.
enum EngineStreams {
    /// Drops `slot`'s stream after `error`: the rows that were in flight (to be put back,
    /// uncertain), and a note when its endpoint just went into back-off while others are left.
    static func drop(_ slot: some EngineSlot, after error: ConnectionError, now: ContinuousClock.Instant,
                     backoff: Backoff, spread: EndpointSpread?) -> (rows: [Int], note: String?) {
        let unanswered = slot.unansweredItems.sorted()
        let endpoint = slot.link?.connection.endpoint
        slot.reset()
        slot.failures += 1
        slot.notBefore = now + backoff.delay(failures: slot.failures)
        var note: String?
        // A throttled form request is the server answering (and throttling is usually per
        // client address, so every endpoint would say the same): the endpoint did not fail.
        var endpointFailed = true
        if case .stanzaError = error { endpointFailed = false }
        if endpointFailed, let endpoint, let spread, spread.count > 1, spread.lost(endpoint) {
            note = "\(endpoint.host):\(endpoint.port) failed (\(error)): backing off; its streams move to the other "
                + "endpoints, and the rows in flight on them are sent again there"
        }
        return (unanswered, note)
    }

    /// Streams whose deadline passed.
    static func expired<Slot: EngineSlot>(_ slots: [Slot], now: ContinuousClock.Instant, timeout: Duration) -> [Slot] {
        slots.filter { slot in slot.deadline(timeout: timeout).map { $0 <= now } ?? false }
    }

    /// When the poll loop must look again: a deadline, the end of a back-off, at most 1 s.
    static func nextWake(_ slots: [some EngineSlot], now: ContinuousClock.Instant, hasQueued: Bool,
                         throttledUntil: ContinuousClock.Instant, timeout: Duration) -> ContinuousClock.Instant {
        var wake = now + .seconds(1)
        if hasQueued && throttledUntil > now { wake = min(wake, throttledUntil) }
        for slot in slots {
            if let d = slot.deadline(timeout: timeout) { wake = min(wake, d) }
            if hasQueued && slot.notBefore > now { wake = min(wake, slot.notBefore) }
        }
        return wake
    }
}
