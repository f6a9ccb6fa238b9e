import Arguments
import XMPPServices
import XMPPStanzas

extension RosterTool {
    /// `xmpp-roster watch`: stays online and prints roster pushes, subscription requests and
    /// presence changes (JSON Lines with --json, one line per event, flushed as it happens) until
    /// SIGINT or SIGTERM, which end it with unavailable presence.
    struct Watch: ToolCommand {
        /// The presence --show announces: online (no <show>) or one of RFC 6121's show values.
        enum Show: String, CaseIterable, Sendable {
            case online, chat, away, xa, dnd

            /// The <show> element's value; nil for plain online.
            var presenceShow: Presence.Show? { Presence.Show(rawValue: rawValue) }
        }

        static let autoApprove = Flag("auto-approve", help: "Approve every subscription request and subscribe back (for bots).")
        static let show = Option<Show>.choice("show", value: "SHOW", help: "Presence to show while watching.", default: .online)
        static let status = Option<String>("status", value: "TEXT", help: "Status text to show while watching.")
        static let priority = Option<Int>.integer(
            "priority", value: "N", help: "Resource priority, -128 to 127 (negative: no messages routed here).",
            in: -128...127, default: -1)

        static let spec = CommandSpec(
            "watch", summary: "Stay online and print roster pushes, subscription requests and presence changes.",
            discussion: ["With --json each event is one JSON object per line. SIGINT or SIGTERM ends it cleanly with "
                         + "unavailable presence (exit status 0).",
                         "To keep a bot's roster answered, run it as a systemd user service: the Debian package "
                         + "ships /usr/share/doc/xmpp-tools/examples/xmpp-roster-watch@.service (in the source: "
                         + "packaging/examples/), an instance per account, restarted on failure but not after exit "
                         + "status 2 or 3, since a refused session needs a new xmpp-login."],
            options: [autoApprove, show, status, priority] + PasswordSource.declarations,
            examples: [Example("xmpp-roster watch --json | jq -c 'select(.event == \"subscription_request\")'",
                               "Print subscription requests as they arrive.")])

        /// How long one wait for the server lasts before the stop flag is checked again.
        static let tick: Duration = .milliseconds(200)

        let context: AccountContext
        let autoApprove: Bool
        let show: Show
        let status: String?
        let priority: Int

        init(_ invocation: Invocation) throws {
            let command = invocation.command
            context = invocation.passwordContext
            autoApprove = command[Self.autoApprove]
            do {
                priority = try command.value(Self.priority) ?? -1
                show = try command.value(Self.show) ?? .online
                status = try command.value(Self.status)
            } catch {
                throw ToolFailure(.usage, error.reason.description)
            }
        }

        func run() throws {
            if let status, !RosterFile.isValidText(status) { throw ToolFailure(.badInput, "invalid --status: control characters") }
            StopSignal.install()
            let session = try RosterSession.open(context)
            defer { session.close() }
            try session.sync()
            let printer = WatchPrinter(json: context.common.json, account: session.account)
            // Initial presence behind a ping: what the server owes for it (contacts' presence, waiting
            // requests) is printed first, then an "online" event says the watch is in place.
            let initial = PresenceService.available(priority: priority, show: show.presenceShow, status: status,
                                                    photo: PresenceService.ownPhotoUpdate(on: session.connection))
            for event in try session.barrier(sending: [initial.element]) {
                try handle(event, session: session, printer: printer, pushApplied: true)
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
                try handle(event, session: session, printer: printer)
            }
        }

        private func handle(_ event: IncomingEvent, session: RosterSession, printer: WatchPrinter,
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
                context.environment.warn("ignored a stanza from the server: \(reason)")
            case .reply, .message:
                return
            }
        }
    }
}
