import XMPPConnection
import XMPPStanzas

/// A row the engines work on: the validated row, its password, and what this run knows of it.
struct WorkItem: Sendable {
    let row: BatchRow
    /// The password to register or log in with (from the CSV or the journal).
    let password: String
    /// `--passwd`: the password to change to.
    let newPassword: String?
    /// An earlier request may have reached the server without an answer.
    var uncertain: Bool
    /// Requests sent for this row in this run.
    var attempts = 0
}

/// One unauthenticated registration stream of the engine: its connection (if any), the form it
/// fetched, the requests in flight on it, and when it may next connect or send.
final class RegistrationSlot {
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
        /// When the missing reply counts as a dropped connection.
        var deadline: ContinuousClock.Instant
    }

    var state: State = .idle
    var link: PolledConnection?
    /// The registration form this stream fetched (once per stream).
    var form: RegistrationForm?
    /// Requests in flight, by IQ id.
    var inFlight: [String: Request] = [:]
    /// No connecting or sending before this (back-off after failures or throttling).
    var notBefore = ContinuousClock.now
    /// Failures in a row, for the back-off.
    var failures = 0

    /// The earliest deadline among the form request and the registrations in flight.
    var nextDeadline: ContinuousClock.Instant? {
        var all = inFlight.values.map(\.deadline)
        if case .awaitingForm(_, let d) = state { all.append(d) }
        return all.min()
    }

    /// Forgets the connection and form; the caller requeues what was in flight.
    func reset() {
        link?.close()
        link = nil
        form = nil
        state = .idle
        inFlight.removeAll()
    }
}
