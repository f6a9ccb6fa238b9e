import XMPPServices
import XMPPStanzas

/// What a watch has printed, so that after a reconnection it prints what changed while it was
/// away and nothing twice: the roster it last showed, each contact resource's presence, and the
/// subscription requests already announced (a server redelivers those on every new session).
struct WatchMemory {
    /// The roster as last printed.
    private(set) var roster: [JID: RosterItem] = [:]
    /// Each available contact resource's last printed presence.
    private var available: [JID: PresenceSummary] = [:]
    /// Contacts whose subscription request was printed and is still unanswered.
    private var requests: Set<JID> = []

    /// A presence as a watch prints it: what makes two of them the same event.
    struct PresenceSummary: Equatable {
        var show: Presence.Show?
        var status: String?
        var priority: Int?
    }

    mutating func remember(roster items: [JID: RosterItem]) { roster = items }

    /// Whether a pushed `item` differs from what was printed (or, before the first push, from
    /// the roster the watch started with): a server pushes unchanged items again, as Prosody
    /// does for one whose own subscription request is pending when a session sends its
    /// initial presence.
    func isNews(_ item: RosterItem) -> Bool {
        item.subscription == .remove ? roster[item.jid] != nil : roster[item.jid] != item
    }

    /// Records a roster push as printed.
    mutating func printed(_ item: RosterItem) {
        if item.subscription == .remove { roster[item.jid] = nil } else { roster[item.jid] = item }
        if item.subscription.sendsPresence { requests.remove(item.jid) }
    }

    /// Whether `presence` from `from` tells something not yet printed; records it if so.
    mutating func isNews(_ presence: Presence, from: JID) -> Bool {
        switch presence.type {
        case nil:
            let summary = PresenceSummary(show: presence.show, status: presence.status, priority: presence.priority)
            return available.updateValue(summary, forKey: from) != summary
        case .unavailable?:
            return available.removeValue(forKey: from) != nil
        case .subscribe?:
            return requests.insert(from.bare).inserted
        case .subscribed?, .unsubscribed?, .unsubscribe?:
            requests.remove(from.bare)
            return true
        case .probe?, .error?:
            return false
        }
    }

    /// The roster items that differ between what was printed and `current` (removed ones with
    /// subscription `remove`), ordered by JID; `current` is remembered.
    mutating func changes(to current: [JID: RosterItem]) -> [RosterItem] {
        var changed = current.values.filter { roster[$0.jid] != $0 }
        changed += roster.keys.filter { current[$0] == nil }.map { RosterItem(jid: $0, subscription: .remove) }
        roster = current
        return RosterSession.sortedByJID(changed)
    }

    /// The resources printed as available that a new session did not announce again: they went
    /// offline while the watch was away. They are forgotten.
    mutating func notAnnounced(since before: Set<JID>) -> [JID] {
        let gone = before.filter { available[$0] != nil && !announced.contains($0) }
        for jid in gone { available[jid] = nil }
        announced = []
        return gone.sorted { $0.description < $1.description }
    }

    /// Starts a new session's bookkeeping: nothing is announced in it yet. Returns the resources
    /// printed as available before it.
    mutating func beginSession() -> Set<JID> {
        announced = []
        return Set(available.keys)
    }

    /// Resources that announced themselves in the current session's initial presence exchange.
    private var announced: Set<JID> = []

    /// Notes that `from` sent available presence in the new session (news or not).
    mutating func announce(_ from: JID) { announced.insert(from) }
}
