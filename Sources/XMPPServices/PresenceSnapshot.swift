import XMLTree
import XMPPConnection
import XMPPStanzas

/// Contacts' current presence without announcing the account (RFC 6121 §4.3): a probe to each
/// contact whose presence the account may see, then reading until every answer is in. Answers
/// come to this resource only, and no contact sees the account come online — except on a server
/// that drops the probes a client sends, where the snapshot goes online for a moment (priority
/// -1) and goes unavailable only when the stream closes.
public enum PresenceSnapshot {
    /// Probes per write: about one 16 KB TLS record.
    public static let probesPerWrite = 150

    /// What `gather` found out about the stream besides presence.
    public struct Outcome: Sendable {
        /// The snapshot sent available presence (the server drops client probes); the caller
        /// sends unavailable before closing.
        public var wentOnline = false
    }

    /// The presence of `expected`, each presence handed to `each` as it arrives, and every
    /// roster push that arrives meanwhile (already acknowledged) to `pushes`, in order.
    ///
    /// Probes and a XEP-0092 software-version request go in pieces, a ping behind the last.
    /// A server that answers every probe itself (offline contacts with unavailable) has done
    /// so before the pong. A server whose contacts answer from their own sessions may answer
    /// after the pong, and offline ones not at all: while contacts of `expected` have not
    /// answered, reading goes on until `quiet` passes without a presence, never longer than
    /// `cap`. A server that drops client probes (recognised by its version reply:
    /// `PresenceService.dropsClientProbes`) gets available presence with the account's
    /// XEP-0153 photo hash instead. `expected` is consumed: it becomes the set still to answer,
    /// so a big roster's JIDs are not held twice.
    public static func gather(on connection: any StanzaChannel, account: JID, expecting expected: consuming Set<JID>,
                              quiet: Duration = .milliseconds(300), cap: Duration = .seconds(2),
                              pushes: ([RosterQuery]) -> Void, each: (Presence) -> Void) throws(ConnectionError) -> Outcome {
        var outcome = Outcome()
        let versionID = connection.makeID()
        let version = PresenceService.softwareVersionRequest(id: versionID, domain: account.domain)
        var waiting = consume expected
        let anyExpected = !waiting.isEmpty
        try sendProbes(to: waiting, on: connection)
        var versionReply: Iq?
        var arrived: [RosterQuery] = []
        func take(_ event: IncomingEvent) {
            switch event {
            case .presence(let p):
                if let from = p.from?.bare { waiting.remove(from) }
                each(p)
            case .reply(let iq) where iq.id == versionID: versionReply = iq
            case .rosterPush(let push): arrived.append(push)
            default: break
            }
        }
        func barrier(sending first: [XMLElement]) throws(ConnectionError) {
            try PresenceService.barrier(on: connection, account: account, sending: first, each: take)
            if !arrived.isEmpty { pushes(arrived) }
            arrived.removeAll()
        }
        try barrier(sending: [version.element])
        if anyExpected && PresenceService.dropsClientProbes(versionReply: versionReply) {
            let photo = PresenceService.ownPhotoUpdate(on: connection)
            try barrier(sending: [PresenceService.available(priority: -1, photo: photo).element])
            outcome.wentOnline = true
        }
        let end = ContinuousClock.now + cap
        while !waiting.isEmpty {
            let event: IncomingEvent
            do {
                event = try PresenceService.next(on: connection, account: account, deadline: min(end, .now + quiet))
            } catch {
                if case .timedOut = error { break }
                throw error
            }
            take(event)
            if !arrived.isEmpty { pushes(arrived) }
            arrived.removeAll()
        }
        return outcome
    }

    /// A probe to each contact, written `probesPerWrite` at a time: 2,000 probes built and
    /// written at once held their elements, their bytes and OpenSSL's copy together.
    private static func sendProbes(to contacts: Set<JID>, on connection: any StanzaChannel) throws(ConnectionError) {
        var probes: [XMLElement] = []
        probes.reserveCapacity(probesPerWrite)
        for contact in contacts {
            probes.append(PresenceService.probe(contact).element)
            if probes.count == probesPerWrite {
                try connection.send(probes)
                probes.removeAll(keepingCapacity: true)
            }
        }
        if !probes.isEmpty { try connection.send(probes) }
    }
}
