import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// One account's pass of the roster phase (`RosterPhase`) as a conversation on its own stream:
/// it reads the roster, then sends what it lacks, `RosterPhase.window` stanzas at a time, each
/// window closed by a ping whose answer says the server handled every stanza before it.
final class RosterConversation: AccountConversation {
    /// The account's work.
    let job: RosterPhase.Job
    let approving: Bool
    /// Whose requests this pass approves: the contacts whose first pass went through.
    private let approvable: Set<JID>

    private enum State {
        case awaitingRoster(RosterService.PendingFetch)
        /// `stanzas[..<sent]` are out; the ping `ping` closes the last window.
        case windows(ping: String, sent: Int)
        case done
    }

    private var state: State = .done
    private var stanzas: [XMLElement] = []
    /// The ids of the roster sets and removals: an error answer to one fails the pass.
    private var sets: Set<String> = []
    private var refusal: StanzaError?
    /// Contacts this pass asked for a subscription, and those it approved.
    private(set) var asking: [JID] = []
    private(set) var approved: Set<JID> = []
    /// False when a contact's request is still to be approved (by the second pass).
    private(set) var complete = true

    init(job: RosterPhase.Job, approving: Bool, approvable: Set<JID>) {
        self.job = job
        self.approving = approving
        self.approvable = approvable
    }

    func start(on link: PolledConnection, account: JID) throws -> ConversationStep {
        let (get, pending) = RosterService.fetchRequest(on: link.connection, cachedVer: nil)
        state = .awaitingRoster(pending)
        return .send([get.element])
    }

    func receive(_ element: XMLElement, on link: PolledConnection, account: JID) throws -> ConversationStep {
        guard case .reply(let iq)? = try PresenceService.event(in: element, on: link.connection, account: account) else { return .waiting }
        switch state {
        case .awaitingRoster(let pending):
            guard iq.id == pending.id else { return .waiting }
            if iq.type == .error { throw ConnectionError.stanzaError(iq.error ?? StanzaError(type: "cancel", condition: .undefinedCondition)) }
            guard case .full(let query) = try pending.take(iq) else {
                throw ConnectionError.protocolViolation("the server answered a roster request without the roster")
            }
            plan(query, on: link.connection)
            return nextWindow(on: link.connection, account: account, from: 0)
        case .windows(let ping, let sent):
            if sets.contains(iq.id), iq.type == .error, refusal == nil {
                refusal = iq.error ?? StanzaError(type: "cancel", condition: .undefinedCondition)
            }
            guard iq.id == ping else { return .waiting }
            if let refusal { throw ConnectionError.stanzaError(refusal) }
            return nextWindow(on: link.connection, account: account, from: sent)
        case .done:
            return .waiting
        }
    }

    /// The next window and its ping, or the end of the pass.
    private func nextWindow(on connection: Connection, account: JID, from start: Int) -> ConversationStep {
        guard start < stanzas.count else {
            state = .done
            return .finished
        }
        let end = min(start + RosterPhase.window, stanzas.count)
        var ping = Iq(type: .get, id: connection.makeID(), payload: XMLElement("ping", namespace: Namespace.ping))
        ping.to = try? JID(local: nil, domain: account.domain)
        state = .windows(ping: ping.id, sent: end)
        return .send(Array(stanzas[start..<end]) + [ping.element])
    }

    /// What the account's roster lacks. The first pass also approves the contacts whose first
    /// pass finished before it began (their requests are waiting): after one more pupil, the
    /// class and the teachers approve it at once and need no second log-in.
    private func plan(_ query: RosterQuery, on connection: Connection) {
        var present: [JID: RosterItem] = [:]
        for item in query.items { present[item.jid.bare] = item }
        if job.reset && !approving {
            // RFC 6121 §2.5 for every item: an empty roster without subscriptions to build on.
            for jid in present.keys.sorted(by: { $0.description < $1.description }) { remove(jid, on: connection) }
            present = [:]
        }
        // RFC 6121 §2.5: subscription='remove' deletes the item and cancels both subscriptions.
        for gone in job.remove where present[gone] != nil { remove(gone, on: connection) }
        for contact in job.contacts {
            let item = present[contact.jid]
            if item == nil || item?.name != contact.name || item?.groups != contact.groups {
                let iq = RosterService.setIq(contact, id: connection.makeID())
                sets.insert(iq.id)
                stanzas.append(iq.element)
            }
            let subscription = item?.subscription ?? .none
            if !subscription.sendsPresence {
                if approvable.contains(contact.jid) {
                    stanzas.append(PresenceService.subscription(.subscribed, to: contact.jid).element)
                    approved.insert(contact.jid)
                } else {
                    complete = false
                }
            }
            if !subscription.receivesPresence && !(item?.ask ?? false) {
                stanzas.append(PresenceService.subscription(.subscribe, to: contact.jid).element)
                asking.append(contact.jid)
            }
        }
    }

    private func remove(_ jid: JID, on connection: Connection) {
        let iq = RosterService.removeIq(jid, id: connection.makeID())
        sets.insert(iq.id)
        stanzas.append(iq.element)
    }
}
