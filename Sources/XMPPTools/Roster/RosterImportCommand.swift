#if canImport(Glibc)
import Glibc
#endif
import Arguments
import TextFormats
import XMPPConnection
import XMPPServices
import XMPPStanzas

extension RosterTool {
    /// `xmpp-roster import FILE`: merges an exported roster into the account's (adds missing
    /// contacts, updates names and groups), the roster sets pipelined.
    struct Import: ToolCommand {
        static let dryRun = Flag("dry-run", help: "Only show what would change.")
        static let noSubscribe = Flag("no-subscribe", help: "Send no subscription requests for added contacts.")
        static let file = PositionalSpec("FILE", help: "The file, or - for standard input.",
                                         completion: .file(extensions: ["json", "csv"]))

        static let spec = CommandSpec(
            "import", summary: "Merge an exported roster: add missing contacts, update names and groups.",
            discussion: ["The format (JSON array as written by export or list --json, or CSV with a jid,name,groups header; groups "
                         + "separated by ';') is detected. Contacts that the file shows as subscribed (to, both, ask) or that "
                         + "have no subscription field get a subscription request unless --no-subscribe is given.",
                         "CSV from a spreadsheet may be comma-, semicolon- or tab-separated (detected from the header line, or "
                         + "from Excel's sep= first line) and UTF-8 or UTF-16 with a byte-order mark; a row with fewer fields "
                         + "than the header is an error naming its line. export --format csv ends lines with CRLF, as the batch "
                         + "report does."],
            options: [dryRun, noSubscribe] + PasswordSource.declarations,
            positionals: [file],
            examples: [Example("xmpp-roster export -a old@example.org | xmpp-roster import - -a new@example.net --dry-run",
                               "Show what moving a roster would change.")])

        let context: AccountContext
        let path: String
        let dryRun: Bool
        let subscribe: Bool

        init(_ invocation: Invocation) {
            context = invocation.passwordContext
            path = invocation.command.argument(Self.file.name) ?? "-"
            dryRun = invocation.command[Self.dryRun]
            subscribe = !invocation.command[Self.noSubscribe]
        }

        func run() throws {
            if path == "-" { try context.passwordForRun?.refuseStandardInput(sharedWith: "the roster") }
            let entries = try RosterFile.parse(try read(path))
            let account = try context.accountJID()
            let wanted = try ImportPlan.resolve(entries, account: account)
            let session = try RosterSession.open(context)
            defer { session.close() }
            try session.sync()
            let plan = ImportPlan(wanted.entries, roster: session.roster, skipped: wanted.skipped, subscribeAllowed: subscribe)
            var failures: [String] = []
            if !dryRun { failures = try apply(plan, session) }
            report(plan, failures: failures)
            if !failures.isEmpty { throw ToolFailure(.failed, "\(failures.count) contact(s) could not be imported") }
        }

        private func read(_ path: String) throws -> [UInt8] {
            let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ToolFailure(.badInput, "cannot open \(path): \(String(cString: strerror(errno)))") }
            defer { if fd != 0 { close(fd) } }
            return readAll(fd: fd, limit: RosterFile.maxBytes + 1)
        }

        /// Sends the roster sets pipelined, fifty at a time, then the subscription requests in one write.
        private func apply(_ plan: ImportPlan, _ session: RosterSession) throws -> [String] {
            let connection = session.connection
            let sets = plan.add.map(\.0) + plan.update.map(\.new)
            var failures: [String] = []
            var failed = Set<JID>()
            var start = 0
            while start < sets.count {
                let chunk = sets[start..<min(start + 50, sets.count)]
                let iqs = chunk.map { RosterService.setIq($0, id: connection.makeID()) }
                try connection.send(iqs.map(\.element))
                for (iq, item) in zip(iqs, chunk) {
                    if let error = Self.awaitReply(connection, id: iq.id) {
                        guard case .stanzaError(let e) = error else { throw error }
                        failures.append("\(item.jid): \(e)")
                        failed.insert(item.jid)
                        context.environment.warn("cannot import \(item.jid): \(e)")
                    }
                }
                start += 50
            }
            let subscribes = plan.add.filter { $0.subscribe && !failed.contains($0.0.jid) }
                .map { PresenceService.subscription(.subscribe, to: $0.0.jid).element }
            _ = try session.barrier(sending: subscribes)
            return failures
        }

        private static func awaitReply(_ connection: Connection, id: String) -> ConnectionError? {
            do { _ = try connection.awaitReply(id: id); return nil } catch { return error }
        }

        private func report(_ plan: ImportPlan, failures: [String]) {
            let environment = context.environment
            func groups(_ g: [String]) -> JSONValue { .array(g.map(JSONValue.string)) }
            if context.common.json {
                Output.line(JSONValue.object([
                    ("dry_run", .bool(dryRun)),
                    ("added", .array(plan.add.map { item, subscribe in
                        .object([("jid", .string(item.jid.description)), ("name", .optional(item.name)),
                                 ("groups", groups(item.groups)), ("subscribe", .bool(subscribe))])
                    })),
                    ("updated", .array(plan.update.map { new, old in
                        .object([("jid", .string(new.jid.description)), ("name", .optional(new.name)), ("groups", groups(new.groups)),
                                 ("old_name", .optional(old.name)), ("old_groups", groups(old.groups))])
                    })),
                    ("unchanged", .int(plan.unchanged)),
                    ("skipped", .array(plan.skipped.map(JSONValue.string))),
                    ("failed", .array(failures.map(JSONValue.string))),
                ]).pretty)
                return
            }
            // The tabs separate columns; what the file or the server holds is escaped (`TerminalText`).
            func show(_ name: String?, _ g: [String]) -> String {
                TerminalText.escaped("\"\(name ?? "")\" [\(g.joined(separator: ", "))]")
            }
            func jid(_ j: JID) -> String { TerminalText.escaped(j.description) }
            for (item, subscribe) in plan.add {
                Output.line("+ \(jid(item.jid))\t\(show(item.name, item.groups))\(subscribe ? "\tsubscribe" : "")")
            }
            for (new, old) in plan.update {
                Output.line("~ \(jid(new.jid))\t\(show(old.name, old.groups)) -> \(show(new.name, new.groups))")
            }
            for jid in plan.skipped { environment.warn("skipped \(jid): it is the account itself") }
            guard !context.common.quiet else { return }
            let verb = dryRun ? "would add" : "added"
            let verb2 = dryRun ? "would update" : "updated"
            Output.err("\(environment.program): \(verb) \(plan.add.count), \(verb2) \(plan.update.count), "
                       + "\(plan.unchanged) unchanged" + (dryRun ? " (dry run: nothing changed)" : ""))
        }
    }
}
