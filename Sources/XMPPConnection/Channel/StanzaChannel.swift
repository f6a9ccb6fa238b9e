import XMLTree
import XMPPStanzas

/// What a service needs of an XMPP stream (libstrophe's small `conn_interface`): fresh ids,
/// sending, the reply to a request by id, the next stanza no request claimed, and the stream's
/// features. `Connection` is the real one; tests feed services the XEPs' examples through a fake.
/// One owner at a time, like the connection behind it.
public protocol StanzaChannel: AnyObject {
    /// The domain the stream was opened to.
    var domain: String { get }
    /// How long a request waits for its reply unless told otherwise.
    var timeout: Duration { get }
    /// The latest stream features (what the server offers: roster versioning, registration…).
    var features: StreamFeatures { get }
    /// The full JID after binding; nil before (or on a registration stream).
    var boundJID: JID? { get }
    /// A fresh stanza id, unique on this stream.
    func makeID() -> String
    /// Sends several elements in one write, without waiting.
    func send(_ elements: [XMLElement]) throws(ConnectionError)
    /// Waits for the reply to an IQ already sent with `id` (nil timeout: the stream's own).
    /// An error reply throws `.stanzaError`; other stanzas that arrive meanwhile are kept.
    func awaitReply(id: String, timeout: Duration?) throws(ConnectionError) -> Iq
    /// The next stanza that no request claimed, waiting until `deadline`.
    func nextStanza(deadline: ContinuousClock.Instant) throws(ConnectionError) -> XMLElement
}

extension StanzaChannel {
    /// Sends one element without waiting.
    public func send(_ element: XMLElement) throws(ConnectionError) { try send([element]) }

    /// Waits for the reply to `id` within the stream's own timeout.
    public func awaitReply(id: String) throws(ConnectionError) -> Iq { try awaitReply(id: id, timeout: nil) }

    /// Sends `iq` and waits for its reply. An error reply throws `.stanzaError`.
    @discardableResult
    public func request(_ iq: Iq, timeout: Duration? = nil) throws(ConnectionError) -> Iq {
        try send([iq.element])
        return try awaitReply(id: iq.id, timeout: timeout)
    }
}
