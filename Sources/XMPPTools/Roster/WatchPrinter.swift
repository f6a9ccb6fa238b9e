import Glibc
import TextFormats
import XMPPStanzas

/// Formats watch events for people or as JSON Lines.
final class WatchPrinter {
    let json: Bool
    let account: JID

    init(json: Bool, account: JID) {
        self.json = json
        self.account = account
    }

    func rosterPush(_ item: RosterItem) {
        emit([("event", .string("roster_push"))] + objectMembers(RosterOutput.json(item, presence: nil)),
             text: item.subscription == .remove ? "roster: \(item.jid) removed"
                : "roster: \(item.jid) \(RosterOutput.subscriptionText(item))"
                    + (item.name.map { " \"\($0)\"" } ?? "") + (item.groups.isEmpty ? "" : " [\(item.groups.joined(separator: ", "))]"))
    }

    func presence(_ p: Presence, from: JID) {
        let bare = from.bare.description
        switch p.type {
        case nil, .unavailable?:
            let state = p.type == nil ? (p.show?.rawValue ?? "online") : "offline"
            emit([("event", .string("presence")), ("jid", .string(bare)), ("resource", .optional(from.resource)),
                  ("presence", .string(state)), ("status", .optional(p.status)), ("priority", .int(p.priority ?? 0))],
                 text: "\(from) is \(state)" + (p.status.map { ": \($0)" } ?? ""))
        case .subscribe?:
            emit([("event", .string("subscription_request")), ("jid", .string(bare)), ("nick", .optional(p.nick)),
                  ("status", .optional(p.status))],
                 text: "\(bare) asks to see your presence" + (p.status.map { ": \($0)" } ?? ""))
        case .subscribed?, .unsubscribed?, .unsubscribe?:
            let kind = p.type?.rawValue ?? ""
            emit([("event", .string(kind)), ("jid", .string(bare))], text: "\(bare): \(kind)")
        case .probe?, .error?:
            return
        }
    }

    func online(_ bound: JID, contacts: Int, reconnected: Bool = false) {
        emit([("event", .string("online")), ("jid", .string(bound.description)), ("contacts", .int(contacts)),
              ("reconnected", .bool(reconnected))],
             text: (reconnected ? "connected again, " : "") + "watching as \(bound) (\(contacts) contacts); interrupt to stop")
    }

    func approved(_ jid: JID, subscribedBack: Bool) {
        emit([("event", .string("approved")), ("jid", .string(jid.description)), ("subscribed_back", .bool(subscribedBack))],
             text: "approved \(jid)" + (subscribedBack ? " and subscribed back" : ""))
    }

    private func objectMembers(_ value: JSONValue) -> [(String, JSONValue)] {
        if case .object(let m) = value { return m }
        return []
    }

    /// Notices a closed pipe between events: poll reports POLLERR on a write end whose reader is gone.
    func checkReader() {
        var pfd = pollfd(fd: 1, events: 0, revents: 0)
        if poll(&pfd, 1, 0) > 0 && pfd.revents & Int16(POLLERR | POLLHUP) != 0 { Output.noteStdoutFailure(EPIPE) }
    }

    /// One line per event, written at once (unbuffered, so a pipe sees it now).
    /// Text lines quote names, groups and status texts others chose: their controls are escaped.
    private func emit(_ members: [(String, JSONValue)], text: String) {
        Output.line(json ? JSONValue.object(members).compact : TerminalText.escaped(text))
    }
}
