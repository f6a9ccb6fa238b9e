import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// One account's pass of the roster phase (`RosterPhase`) as a conversation on its own stream:
/// it reads the roster, then sends what it lacks as `RosterChanges` (XMPPServices, which
/// `xmpp-roster import` sends too), `RosterPhase.window` stanzas at a time, each window closed
/// by a ping whose answer says the server handled every stanza before it.
final class RosterConversation: AccountConversation {
    /// The account's work.
    let job: RosterPhase.Job
    let approving: Bool
    /// Whose requests this pass approves: the contacts whose first pass went through.
    private let approvable: Set<JID>

    private enum State {
        case awaitingRoster(RosterService.PendingFetch)
        case windows
        case done
    }

    private var state: State = .done
    /// What the roster lacks; a refused set or removal fails the pass.
    private let changes = RosterChanges(window: RosterPhase.window)
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
            plan(query)
            state = .windows
            return try carry(changes.start(account: account, makeID: link.connection.makeID))
        case .windows:
            return try carry(changes.receive(iq, account: account, makeID: link.connection.makeID))
        case .done:
            return .waiting
        }
    }

    /// The changes' next step as the conversation's; a refusal fails the pass once its window is answered.
    private func carry(_ step: RosterChanges.Step) throws -> ConversationStep {
        switch step {
        case .waiting:
            return .waiting
        case .send(let window):
            if let refusal = changes.refused.first { throw ConnectionError.stanzaError(refusal.error) }
            return .send(window)
        case .finished:
            if let refusal = changes.refused.first { throw ConnectionError.stanzaError(refusal.error) }
            state = .done
            return .finished
        }
    }

    /// What the account's roster lacks. The first pass also approves the contacts whose first
    /// pass finished before it began (their requests are waiting): after one more pupil, the
    /// class and the teachers approve it at once and need no second log-in.
    private func plan(_ query: RosterQuery) {
        var present: [JID: RosterItem] = [:]
        for item in query.items { present[item.jid.bare] = item }
        if job.reset && !approving {
            // RFC 6121 §2.5 for every item: an empty roster without subscriptions to build on.
            for jid in present.keys.sorted(by: { $0.description < $1.description }) { changes.remove(jid) }
            present = [:]
        }
        // RFC 6121 §2.5: subscription='remove' deletes the item and cancels both subscriptions.
        for gone in job.remove where present[gone] != nil { changes.remove(gone) }
        for contact in job.contacts {
            let item = present[contact.jid]
            if item == nil || item?.name != contact.name || item?.groups != contact.groups {
                changes.set(contact)
            }
            let subscription = item?.subscription ?? .none
            if !subscription.sendsPresence {
                if approvable.contains(contact.jid) {
                    changes.send(PresenceService.subscription(.subscribed, to: contact.jid))
                    approved.insert(contact.jid)
                } else {
                    complete = false
                }
            }
            if !subscription.receivesPresence && !(item?.ask ?? false) {
                changes.send(PresenceService.subscription(.subscribe, to: contact.jid))
                asking.append(contact.jid)
            }
        }
    }
}
