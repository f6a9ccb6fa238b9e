import Glibc
import Arguments
import XMPPBatch
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
                         "When the connection is lost once the watch is online (the server restarts, the network "
                         + "drops), it says so on standard error (\"connection lost\") and connects again by itself, waiting "
                         + "1 s, then 2 s, 4 s and so on up to 60 s between attempts, each wait lengthened at random "
                         + "by up to half so that the watches of one server do not all return at once; an attempt "
                         + "that fails says \"cannot connect again\". Back online it prints what changed "
                         + "meanwhile and nothing twice: roster items changed or removed (an item the server "
                         + "pushes again unchanged is not printed), contacts that went "
                         + "offline or changed their presence, subscription requests not printed before; then an "
                         + "online event with \"reconnected\": true. A refused session (exit status 3) still ends "
                         + "it, and so does a first connection that fails.",
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

        /// Waits between reconnection attempts.
        static let backoff = Backoff(base: .seconds(1), maximum: .seconds(60), jitter: .above)

        func run() throws {
            if let status, !RosterFile.isValidText(status) { throw ToolFailure(.badInput, "invalid --status: control characters") }
            StopSignal.install()
            var memory = WatchMemory()
            var printer: WatchPrinter?
            var failures = 0
            while true {
                do {
                    try watch(memory: &memory, printer: &printer) { failures = 0 }
                    return
                } catch {
                    // Only a watch that was online reconnects: a first connection that fails is
                    // the command's failure, and a refused session needs a new log-in.
                    let failure = ErrorMapping.failure(for: error)
                    guard printer != nil, failure.code == .network, !StopSignal.stopRequested else { throw error }
                    failures += 1
                    let delay = Self.backoff.delay(failures: failures)
                    let tenths = delay.components.seconds * 10 + delay.components.attoseconds / 100_000_000_000_000_000
                    // The first failure after being online is the lost connection; later ones are
                    // attempts to connect again that failed.
                    let what = failures == 1 ? "connection lost" : "cannot connect again"
                    context.environment.warn("\(what) (\(failure.message)); trying again in \(tenths / 10).\(tenths % 10) s")
                    guard Self.sleep(delay) else { return }
                }
            }
        }

        /// Sleeps `delay` unless SIGINT or SIGTERM comes first; false if one did.
        private static func sleep(_ delay: Duration) -> Bool {
            let end = ContinuousClock.now + delay
            while ContinuousClock.now < end {
                if StopSignal.stopRequested { return false }
                usleep(UInt32(min(200_000, max(1, (end - ContinuousClock.now).components.attoseconds / 1_000_000_000_000))))
            }
            return !StopSignal.stopRequested
        }

        /// One connection's watch, until a signal (returns) or the connection fails (throws).
        /// `printer` is nil before the first connection; after a reconnection `memory` turns
        /// what the new session reports into only what changed.
        private func watch(memory: inout WatchMemory, printer: inout WatchPrinter?, online: () -> Void) throws {
            let session = try RosterSession.open(context)
            defer { session.close() }
            try session.sync()
            let reconnected = printer != nil
            let out = printer ?? WatchPrinter(json: context.common.json, account: session.account)
            printer = out
            if reconnected {
                for item in memory.changes(to: session.roster) { out.rosterPush(item) }
            } else {
                memory.remember(roster: session.roster)
            }
            let before = memory.beginSession()
            // Initial presence behind a ping: what the server owes for it (contacts' presence, waiting
            // requests) is printed first, then an "online" event says the watch is in place.
            let initial = PresenceService.available(priority: priority, show: show.presenceShow, status: status,
                                                    photo: PresenceService.ownPhotoUpdate(on: session.connection))
            for event in try session.barrier(sending: [initial.element]) {
                try handle(event, session: session, printer: out, memory: &memory, pushApplied: true)
            }
            if reconnected {
                for resource in memory.notAnnounced(since: before) {
                    out.presence(Presence(type: .unavailable, from: resource), from: resource)
                }
            }
            out.online(session.connection.boundJID ?? session.account, contacts: session.roster.count, reconnected: reconnected)
            online()
            // Until a signal, or until nobody reads the output any more (`watch | head -1`).
            while !StopSignal.stopRequested {
                let event: IncomingEvent
                do {
                    event = try PresenceService.next(on: session.connection, account: session.account, deadline: .now + Self.tick)
                } catch {
                    if case .timedOut = error { out.checkReader(); continue }
                    throw error
                }
                try handle(event, session: session, printer: out, memory: &memory)
            }
        }

        private func handle(_ event: IncomingEvent, session: RosterSession, printer: WatchPrinter,
                            memory: inout WatchMemory, pushApplied: Bool = false) throws {
            switch event {
            case .rosterPush(let push):
                if !pushApplied { session.apply([push]) }
                for item in push.items where memory.isNews(item) {
                    printer.rosterPush(item)
                    memory.printed(item)
                }
            case .presence(let presence) where presence.type == .probe || presence.type == .error:
                return
            case .presence(let presence):
                guard let from = presence.from, from.bare != session.account else { return }
                if presence.type == nil { memory.announce(from) }
                guard memory.isNews(presence, from: from) else { return }
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
