import CryptoPrimitives
import XMLTree
import XMPPConnection
import XMPPStanzas

/// Something the server sent while a tool is connected, already answered where an answer is due.
public enum IncomingEvent: Sendable {
    /// A presence stanza (availability or subscription).
    case presence(Presence)
    /// A roster push (RFC 6121 §2.1.6), acknowledged.
    case rosterPush(RosterQuery)
    /// The result or error reply to a request this tool sent without waiting.
    case reply(Iq)
    /// A message; one-shot tools ignore them.
    case message(XMLElement)
    /// A stanza that could not be read, with the reason; it was dropped.
    case malformed(String)
}

/// Presence (RFC 6121 §3–§4) for short-lived tools: initial presence with a negative priority,
/// subscription requests and answers, and a ping barrier after which every presence the server
/// owed has arrived (ARCHITECTURE.md §5). Network only.
public enum PresenceService {
    /// Available presence with `priority` (negative keeps messages for the user's real clients away),
    /// advertising `photo` as XEP-0153 requires of every available presence a vCard-avatar client sends.
    public static func available(priority: Int, show: Presence.Show? = nil, status: String? = nil,
                                 photo: VCardUpdate? = nil) -> Presence {
        Presence(show: show, status: status, priority: priority, extensions: photo.map { [$0.element] } ?? [])
    }

    /// What one's own presence advertises under XEP-0153 §3.2: the SHA-1 of the vCard's photo,
    /// `noImage` without one, `notReady` when the card cannot be read (a link is not a photo we
    /// can hash either). One round trip.
    public static func ownPhotoUpdate(on connection: any StanzaChannel) -> VCardUpdate {
        let card: VCard
        do { card = try VCardService.fetch(on: connection, jid: nil) } catch { return .notReady }
        guard let photo = card.photo else { return .noImage }
        guard let base64 = AvatarService.embedded(photo), let bytes = Base64.decode(base64) else {
            return photo.externalURL == nil ? .noImage : .notReady
        }
        return .image(hash: AvatarService.hash(bytes))
    }

    /// A presence probe (RFC 6121 §4.3) for `jid`'s current presence. Sent by a client that has
    /// not sent initial presence, it asks without announcing the account: the answers come to
    /// this resource only, and no contact sees the account come online.
    public static func probe(_ jid: JID) -> Presence {
        Presence(type: .probe, to: jid.bare)
    }

    /// Lower-cased XEP-0092 software names of servers measured to drop the probes a client
    /// sends (jabberd2 2.7 answers none): there a presence snapshot has to go online instead.
    public static let serversDroppingClientProbes: Set<String> = ["jabberd2"]

    /// A XEP-0092 software version request to the account's server, sent with the probes (no extra
    /// round trip) so that a server which drops them is recognised by the barrier's end.
    public static func softwareVersionRequest(id: String, domain: String) -> Iq {
        var iq = Iq(type: .get, id: id, payload: XMLElement("query", namespace: Namespace.softwareVersion))
        iq.to = try? JID(local: nil, domain: domain)
        return iq
    }

    /// Whether a software version reply names a server that drops client probes (false when
    /// there is no reply or no name: probes are then assumed to work).
    public static func dropsClientProbes(versionReply iq: Iq?) -> Bool {
        guard let iq, iq.type == .result,
              let name = iq.payload?.child("name")?.text else { return false }
        return serversDroppingClientProbes.contains(name.lowercased())
    }

    /// The presence that ends availability.
    public static var unavailable: Presence { Presence(type: .unavailable) }

    /// A subscription request, approval (`subscribed`), denial or revocation (`unsubscribed`),
    /// or cancellation (`unsubscribe`) addressed to `jid`.
    public static func subscription(_ kind: Presence.Kind, to jid: JID) -> Presence {
        Presence(type: kind, to: jid.bare)
    }

    /// Sends presence stanzas in one write.
    public static func send(_ presences: [Presence], on connection: any StanzaChannel) throws(ConnectionError) {
        guard !presences.isEmpty else { return }
        try connection.send(presences.map(\.element))
    }

    /// Sends `first` followed by a XEP-0199 ping to the server, and returns every event that
    /// arrived before the pong. The server handles a session's stanzas in order, so presences
    /// it sends because of `first` (probe answers, redelivered subscription requests) and pushes
    /// caused by earlier requests all come before it.
    public static func barrier(on connection: any StanzaChannel, account: JID, sending first: [XMLElement] = []) throws(ConnectionError) -> [IncomingEvent] {
        var events: [IncomingEvent] = []
        try barrier(on: connection, account: account, sending: first) { events.append($0) }
        return events
    }

    /// `barrier`, handing each event to `each` as it arrives rather than keeping them all (the
    /// answers to 2,000 probes held at once were a fifth of a roster list's heap).
    public static func barrier(on connection: any StanzaChannel, account: JID, sending first: [XMLElement] = [],
                               each: (IncomingEvent) -> Void) throws(ConnectionError) {
        let id = connection.makeID()
        var ping = Iq(type: .get, id: id, payload: XMLElement("ping", namespace: Namespace.ping))
        ping.to = try? JID(local: nil, domain: account.domain)
        try connection.send(first + [ping.element])
        let deadline = ContinuousClock.now + connection.timeout
        while true {
            let event = try next(on: connection, account: account, deadline: deadline)
            if case .reply(let iq) = event, iq.id == id { return }
            each(event)
        }
    }

    /// The next event, waiting until `deadline` (`ConnectionError.timedOut` when nothing came).
    /// Roster pushes are acknowledged; any other IQ request gets `service-unavailable` (RFC 6120
    /// §8.2.3: a request must be answered); server pings are answered by the connection.
    public static func next(on connection: any StanzaChannel, account: JID, deadline: ContinuousClock.Instant) throws(ConnectionError) -> IncomingEvent {
        while true {
            if let event = try event(in: try connection.nextStanza(deadline: deadline), on: connection, account: account) { return event }
        }
    }

    /// What a stanza that arrived is (`next`, for a caller that reads the stream itself); nil for
    /// an IQ request it answered with `service-unavailable`.
    public static func event(in element: XMLElement, on connection: any StanzaChannel, account: JID) throws(ConnectionError) -> IncomingEvent? {
        switch element.name {
        case "presence":
            do { return .presence(try Presence(element: element)) } catch { return .malformed("presence: \(error)") }
        case "message":
            return .message(element)
        case "iq":
            let iq: Iq
            do { iq = try Iq(element: element) } catch { return .malformed("iq: \(error)") }
            if iq.type == .result || iq.type == .error { return .reply(iq) }
            if let push = RosterService.push(in: iq, account: account) {
                try connection.send(Iq(type: .result, id: iq.id, to: iq.from).element)
                return .rosterPush(push)
            }
            var refusal = Iq(type: .error, id: iq.id, to: iq.from)
            refusal.error = StanzaError(type: "cancel", condition: .serviceUnavailable)
            try connection.send(refusal.element)
            return nil
        default:
            return .malformed("unexpected <\(element.name)/>")
        }
    }
}
