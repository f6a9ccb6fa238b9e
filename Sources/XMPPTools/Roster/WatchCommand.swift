#if canImport(Glibc)
import TextFormats
import Glibc
#endif
import XMPPServices
import XMPPStanzas

/// `xmpp-roster watch`: stays online and prints roster pushes, subscription requests and
/// presence changes (JSON Lines with --json, one line per event, flushed as it happens) until
/// SIGINT or SIGTERM, which end it with unavailable presence.
struct WatchCommand {
    let invocation: Invocation
    /// How long one wait for the server lasts before the stop flag is checked again.
    static let tick: Duration = .milliseconds(200)

    func run() throws {
        let command = invocation.command
        let priority: Int
        do { priority = try command.int("priority", in: -128...127) ?? -1 } catch {
            throw ToolFailure(.usage, error.reason.description)
        }
        let showText = command.string("show") ?? "online"
        let show = Presence.Show(rawValue: showText)
        let status = command.string("status")
        if let status, !RosterFile.isValidText(status) { throw ToolFailure(.badInput, "invalid --status: control characters") }
        StopSignal.install()
        let session = try RosterSession.open(invocation.context)
        defer { session.close() }
        try session.sync()
        let printer = WatchPrinter(json: invocation.common.json, account: session.account)
        let autoApprove = command.flag("auto-approve")
        // Initial presence behind a ping: what the server owes for it (contacts' presence, waiting
        // requests) is printed first, then an "online" event says the watch is in place.
        let initial = PresenceService.available(priority: priority, show: show, status: status)
        for event in try session.barrier(sending: [initial.element]) {
            try handle(event, session: session, printer: printer, autoApprove: autoApprove, pushApplied: true)
        }
        printer.online(session.connection.boundJID ?? session.account, contacts: session.roster.count)
        // Until a signal, or until nobody reads the output any more (`watch | head -1`).
        while !StopSignal.stopRequested {
            let event: IncomingEvent
            do {
                event = try PresenceService.next(on: session.connection, account: session.account, deadline: .now + Self.tick)
            } catch {
                if case .timedOut = error { printer.checkReader(); continue }
                throw error
            }
            try handle(event, session: session, printer: printer, autoApprove: autoApprove)
        }
    }

    private func handle(_ event: IncomingEvent, session: RosterSession, printer: WatchPrinter, autoApprove: Bool,
                        pushApplied: Bool = false) throws {
        switch event {
        case .rosterPush(let push):
            if !pushApplied { session.apply([push]) }
            for item in push.items { printer.rosterPush(item) }
        case .presence(let presence) where presence.type == .probe || presence.type == .error:
            return
        case .presence(let presence):
            guard let from = presence.from, from.bare != session.account else { return }
            printer.presence(presence, from: from)
            if autoApprove, presence.type == .subscribe {
                let item = session.roster[from.bare]
                var answer = [PresenceService.subscription(.subscribed, to: from.bare)]
                let back = !(item?.subscription.receivesPresence ?? false) && !(item?.ask ?? false)
                if back { answer.append(PresenceService.subscription(.subscribe, to: from.bare)) }
                try PresenceService.send(answer, on: session.connection)
                printer.approved(from.bare, subscribedBack: back)
            }
        case .malformed(let reason):
            invocation.environment.warn("ignored a stanza from the server: \(reason)")
        case .reply, .message:
            return
        }
    }
}

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

    func online(_ bound: JID, contacts: Int) {
        emit([("event", .string("online")), ("jid", .string(bound.description)), ("contacts", .int(contacts))],
             text: "watching as \(bound) (\(contacts) contacts); interrupt to stop")
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
