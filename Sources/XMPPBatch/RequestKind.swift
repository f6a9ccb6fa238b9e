import XMLTree
import XMPPConnection
import XMPPStanzas

/// What differs between the kinds of request the batch engine pipelines (in-band registration,
/// XEP-0133 admin commands, XEP-0401 invites): what a fresh stream learns before it carries
/// rows, how a row's request is made, and what its reply means. Everything else — streams,
/// the poll loop, windows, throttling, dropped streams, timeouts, the journal — is the
/// engine's (`BatchEngine`).
protocol RequestKind: AnyObject {
    /// What a stream learns once before it carries rows (a registration form, a command's form).
    associatedtype Handshake

    /// Whether streams are replaced after `EngineSettings.maxStreamAge` (unauthenticated ones,
    /// which servers close after a while).
    var recyclesStreams: Bool { get }

    /// What a fresh stream sends first: a request whose reply is the handshake, or nothing.
    func begin(on link: PolledConnection, id: String) -> StreamBeginning<Handshake>

    /// The handshake from its reply, or what the stream does instead. A refusal that no other
    /// stream would get either (not permitted, not offered) is thrown and ends the run.
    func handshake(from reply: Iq, on link: PolledConnection) throws -> HandshakeOutcome<Handshake>

    /// Row `index`'s request with id `id`, on a stream ready with `handshake`; what it throws
    /// ends the run.
    func request(_ index: Int, id: String, handshake: Handshake, engine: BatchEngine<Self>) throws -> RowRequest

    /// The reply to row `request.item`'s request: record its outcome, throttle, or send the
    /// next stage of its command (`BatchEngine.sendNextStage`).
    func reply(_ reply: Iq, to request: InFlightRequest, on stream: EngineStream<Self>, engine: BatchEngine<Self>) throws

    /// A row whose request was in flight on a stream that dropped: put back in the queue,
    /// uncertain, unless the kind checks it another way first.
    func unanswered(_ index: Int, after error: ConnectionError, engine: BatchEngine<Self>)

    /// Whether a failure to open a stream ends the run even though it is transient for others
    /// (a rejected administrator).
    func endsRun(opening error: ConnectionError) -> Bool
}

/// What a fresh stream sends first.
enum StreamBeginning<Handshake> {
    /// This request; its reply is the handshake.
    case request(XMLElement)
    /// Nothing: the stream is ready at once.
    case ready(Handshake)
}

/// What came of a handshake reply.
enum HandshakeOutcome<Handshake> {
    /// The stream is ready; `then` goes out first (e.g. cancelling the command session whose
    /// form was learned).
    case ready(Handshake, then: [XMLElement])
    /// The server throttles: the stream backs off and starts again.
    case throttled(StanzaError)
}

/// A row's request.
enum RowRequest {
    /// The request; `generated` is a password made for it now, recorded in the journal before
    /// the request leaves.
    case send(XMLElement, generated: String?)
    /// The row cannot be sent (the server's form asks what the row does not give).
    case failed(String)
}

/// A row's request waiting for its reply.
struct InFlightRequest {
    /// The work item's index.
    var item: Int
    /// Its place in the order its stream sent requests.
    var sequence: Int
    /// Which stage of a multi-stage command (XEP-0050) it is.
    var stage: Int
}

/// One stream of the engine: its connection (if any), what it learned at the start, the
/// requests in flight on it, and when it may next connect or send.
final class EngineStream<Kind: RequestKind> {
    enum State {
        /// No connection (never opened, or dropped): reconnect at `notBefore`.
        case idle
        /// Connected; the handshake request `id` is out.
        case awaitingHandshake(id: String, deadline: ContinuousClock.Instant)
        /// Rows may be sent.
        case ready(Kind.Handshake)
    }

    /// Which of the engine's streams this is (0..<jobs): it picks the home endpoint.
    let index: Int
    var state: State = .idle
    var link: PolledConnection?
    /// The connection being set up (nil once it is `link`, or when there is none).
    var setup: PolledSetup?
    /// Requests in flight, by IQ id.
    var inFlight: [String: InFlightRequest] = [:]
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

    init(index: Int) { self.index = index }

    /// When this stream counts as dead: the handshake's deadline, or `timeout` after the last
    /// sign of life while a request is unanswered. A busy server answering other streams first
    /// is not a dead one, so the clock runs from the last reply, not from each request.
    func deadline(timeout: Duration) -> ContinuousClock.Instant? {
        if case .awaitingHandshake(_, let d) = state { return d }
        return inFlight.isEmpty ? nil : lastActivity + timeout
    }

    /// Whether a reply with `id` would answer this stream's handshake or a request in flight.
    func awaits(_ id: String?) -> Bool {
        guard let id else { return false }
        if case .awaitingHandshake(let handshakeID, _) = state, handshakeID == id { return true }
        return inFlight[id] != nil
    }

    /// Forgets the connection, the handshake and what was in flight (the engine requeues it).
    func reset() {
        setup?.close()
        setup = nil
        link?.close()
        link = nil
        state = .idle
        inFlight.removeAll()
        sent = 0
    }
}
