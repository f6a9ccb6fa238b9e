import CryptoPrimitives
import XMLTree
import XMPPConnection
import XMPPStanzas

/// Runs the services (vCard, avatar, registration: written once, as blocking request/reply
/// code) as a conversation on the batch's poll loop, without ever waiting: the work is run from
/// its start again each time a reply arrives. Requests already sent are not sent again and
/// replies already received are given back, with the same ids, so each run gets one round trip
/// further; a run that needs a reply that has not arrived stops there (`waitsForReply`), and
/// whatever it would send after that is dropped. The services decide only from the replies, so
/// every run takes the same path. One row's work; one owner.
final class ReplayChannel: StanzaChannel {
    /// The stream's facts (domain, features, bound JID); nothing is sent or read through it.
    private let stream: any StanzaChannel
    private let idPrefix = Hex.encode(Crypto.randomBytes(4))
    /// The ids this work's requests carry.
    private var issued: Set<String> = []
    /// Replies that arrived, by id.
    private var replies: [String: XMLElement] = [:]
    /// How many `send`s of the runs so far went out.
    private var sent = 0
    /// The stream ended this way: what a reply still missing is, instead of waiting.
    private var streamFailure: ConnectionError?

    // One run's state.
    private var sends = 0
    private var nextID = 0
    /// The run needs a reply that has not arrived: it is to be run again when it does.
    private(set) var waitsForReply = false
    /// The id of that reply.
    private var awaited: String?
    /// What the run sends first, for the conversation to send.
    private(set) var outbox: [XMLElement] = []

    init(_ stream: any StanzaChannel) { self.stream = stream }

    /// Starts a run from the work's beginning.
    func beginRun() {
        sends = 0
        nextID = 0
        waitsForReply = false
        awaited = nil
        outbox = []
    }

    /// Keeps `element` if it answers one of this work's requests; true when it is the reply
    /// the last run stopped at (run again). Replies to requests sent ahead wait for their turn.
    func take(_ element: XMLElement) -> Bool {
        guard element.name == "iq", let id = element[attribute: "id"], issued.contains(id), replies[id] == nil,
              let type = element[attribute: "type"], type == "result" || type == "error" else { return false }
        replies[id] = element
        return id == awaited
    }

    /// The stream ended: a reply still missing is `failure` from now on.
    func streamEnded(_ failure: ConnectionError) { streamFailure = failure }

    var domain: String { stream.domain }
    var timeout: Duration { stream.timeout }
    var features: StreamFeatures { stream.features }
    var boundJID: JID? { stream.boundJID }

    func makeID() -> String {
        nextID += 1
        let id = "\(idPrefix)-\(nextID)"
        issued.insert(id)
        return id
    }

    func send(_ elements: [XMLElement]) throws(ConnectionError) {
        guard !waitsForReply else { return }
        sends += 1
        guard sends > sent else { return }  // sent by an earlier run
        sent += 1
        outbox += elements
    }

    func awaitReply(id: String, timeout: Duration?) throws(ConnectionError) -> Iq {
        if !waitsForReply, let element = replies[id] { return try Connection.reply(from: element) }
        if !waitsForReply, let streamFailure { throw streamFailure }
        if !waitsForReply { awaited = id }
        waitsForReply = true
        throw .timedOut("waiting for the server")
    }

    func nextStanza(deadline: ContinuousClock.Instant) throws(ConnectionError) -> XMLElement {
        waitsForReply = true
        throw .timedOut("waiting for the server")
    }
}
