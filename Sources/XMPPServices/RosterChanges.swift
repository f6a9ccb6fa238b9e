import XMLTree
import XMPPConnection
import XMPPStanzas

/// Changes to one account's roster — sets (RFC 6121 §2.3), removals (§2.5) and the subscription
/// presences that go with them — sent `window` stanzas at a time, each window closed by a ping
/// (XEP-0199) whose answer says the server handled every stanza before it, so a roster of any
/// size goes out in a few round trips. Written as steps that never wait: the batch's roster
/// phase feeds it the replies its poll loop reads; `RosterSession.send` drives it blocking for
/// `xmpp-roster import`. One owner.
public final class RosterChanges {
    /// What to do next.
    public enum Step: Equatable {
        /// Send these (a window and its ping).
        case send([XMLElement])
        /// The window's answers are still due.
        case waiting
        /// Every window was answered.
        case finished
    }

    /// One change to send.
    private enum Change {
        case set(RosterItem)
        case remove(JID)
        case presence(Presence)
    }

    private let window: Int
    private var stanzas: [Change] = []
    /// The roster sets and removals sent, by id: an error answer refuses that contact's change.
    private var changes: [String: JID] = [:]
    /// `stanzas[..<sent]` are out; `ping` closes the last window.
    private var sent = 0
    private var ping: String?
    /// The contacts whose set or removal the server refused, in the order the refusals came.
    public private(set) var refused: [(jid: JID, error: StanzaError)] = []

    /// Changes sent `window` stanzas at a time.
    public init(window: Int) { self.window = max(1, window) }

    /// Nothing to send.
    public var isEmpty: Bool { stanzas.isEmpty }

    /// Adds or updates `item` (name and groups; the server keeps the subscription).
    public func set(_ item: RosterItem) { stanzas.append(.set(item)) }

    /// Removes `jid` (subscription='remove': the server also cancels both subscriptions).
    public func remove(_ jid: JID) { stanzas.append(.remove(jid)) }

    /// Sends `presence` (a subscription request or approval) in its turn, after the changes before it.
    public func send(_ presence: Presence) { stanzas.append(.presence(presence)) }

    /// The first window, for `account`'s stream whose ids `makeID` makes.
    public func start(account: JID, makeID: () -> String) -> Step { nextWindow(account: account, makeID: makeID) }

    /// Takes a reply that arrived: a refused change is noted; the window's ping answered, the
    /// next window (or the end).
    public func receive(_ reply: Iq, account: JID, makeID: () -> String) -> Step {
        if reply.type == .error, let jid = changes[reply.id] {
            refused.append((jid, reply.error ?? StanzaError(type: "cancel", condition: .undefinedCondition)))
        }
        guard reply.id == ping else { return ping == nil ? .finished : .waiting }
        return nextWindow(account: account, makeID: makeID)
    }

    private func nextWindow(account: JID, makeID: () -> String) -> Step {
        guard sent < stanzas.count else {
            ping = nil
            return .finished
        }
        let end = min(sent + window, stanzas.count)
        var iq = Iq(type: .get, id: makeID(), payload: XMLElement("ping", namespace: Namespace.ping))
        iq.to = try? JID(local: nil, domain: account.domain)
        ping = iq.id
        defer { sent = end }
        return .send(stanzas[sent..<end].map { change in
            switch change {
            case .set(let item):
                let id = makeID()
                changes[id] = item.jid
                return RosterService.setIq(item, id: id).element
            case .remove(let jid):
                let id = makeID()
                changes[id] = jid
                return RosterService.removeIq(jid, id: id).element
            case .presence(let presence):
                return presence.element
            }
        } + [iq.element])
    }
}
