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
