import XMPPConnection
import XMPPStanzas

/// Where a row's password (`--passwd`: its new password) comes from.
enum RowPasswordOrigin: Sendable, Equatable {
    /// The CSV gives it.
    case csv
    /// An earlier report of this batch gave it (the account was made with it).
    case report
    /// This batch generates it, when the row is first sent (nil until then).
    case generated
}

/// A row the engines work on: the validated row, its password, and what this run knows of it.
struct WorkItem: Sendable {
    var row: BatchRow
    /// The password to register or log in with (from the CSV or the journal); nil until a
    /// generated one is made, just before the row's first registration is sent.
    var password: String?
    /// `--passwd`: the password to change to; nil until generated, just before the change.
    var newPassword: String?
    /// Where `password` (`--passwd`: `newPassword`) comes from.
    var source: RowPasswordOrigin = .csv
    /// An earlier request may have reached the server without an answer.
    var uncertain: Bool
    /// Requests sent for this row in this run.
    var attempts = 0
}

/// One unauthenticated registration stream of the engine: its connection (if any), the form it
/// fetched, the requests in flight on it, and when it may next connect or send.
final class RegistrationSlot: EngineSlot {
    enum State {
        /// No connection (never opened, or dropped): reconnect at `notBefore`.
        case idle
        /// Connected; the form request `id` is out.
        case awaitingForm(id: String, deadline: ContinuousClock.Instant)
        /// Connected with a form: registrations may be sent.
        case ready
    }

    /// A request waiting for its reply.
    struct Request {
        /// Index of the work item.
        var item: Int
        /// Its place in the order this stream sent requests.
        var sequence: Int
    }

    let stream: Int
    var state: State = .idle
    var link: PolledConnection?
    /// The registration form this stream fetched (once per stream).
    var form: RegistrationForm?
    /// Requests in flight, by IQ id.
    var inFlight: [String: Request] = [:]
    /// Requests sent on this stream so far (the next one's `sequence`).
    var sent = 0
    /// No connecting or sending before this (back-off after failures or throttling).
    var notBefore = ContinuousClock.now
    /// Failures in a row, for the back-off.
    var failures = 0
    /// When the current connection was opened.
    var openedAt = ContinuousClock.now
    /// The last time something was sent into an idle stream or arrived from it.
    var lastActivity = ContinuousClock.now

    init(stream: Int) { self.stream = stream }

    var unansweredItems: [Int] { inFlight.values.map(\.item) }

    /// When this stream counts as dead: `timeout` after the last sign of life while a request
    /// is unanswered. A busy server answering other streams first is not a dead one, so the clock
    /// runs from the last reply, not from each request.
    func deadline(timeout: Duration) -> ContinuousClock.Instant? {
        if case .awaitingForm(_, let d) = state { return d }
        return inFlight.isEmpty ? nil : lastActivity + timeout
    }

    /// Whether a reply with `id` would answer this stream's form request or one in flight.
    func awaits(_ id: String?) -> Bool {
        guard let id else { return false }
        if case .awaitingForm(let formID, _) = state, formID == id { return true }
        return inFlight[id] != nil
    }

    /// Forgets the connection and form; the caller requeues what was in flight.
    func reset() {
        link?.close()
        link = nil
        form = nil
        state = .idle
        inFlight.removeAll()
        sent = 0
    }
}
