import XMPPServices
import XMPPStanzas

/// A subscription request waiting for an answer (RFC 6121 §3), as `pending` lists them and
/// `approve --all` answers them.
struct SubscriptionRequest {
    var jid: JID
    var nick: String?
    var status: String?

    /// Goes online (negative priority) and collects the subscription requests the server
    /// redelivers before the ping's answer, one per contact.
    static func gather(_ session: RosterSession) throws -> [SubscriptionRequest] {
        let events = try session.barrier(sending: [PresenceService.available(priority: -1, photo: PresenceService.ownPhotoUpdate(on: session.connection)).element])
        var seen = Set<JID>()
        var requests: [SubscriptionRequest] = []
        for case .presence(let p) in events where p.type == .subscribe {
            guard let from = p.from?.bare, from != session.account, seen.insert(from).inserted else { continue }
            requests.append(SubscriptionRequest(jid: from, nick: p.nick, status: p.status))
        }
        return requests
    }
}
