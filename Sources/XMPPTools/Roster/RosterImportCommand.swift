import Glibc
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
        static let domain = Option<String>("domain", value: "DOMAIN",
                                           help: "The domain of a CSV username column (default: the account's domain).")
        static let group = Option<String>("group", value: "GROUP", help: "Also put every contact of the file in GROUP (repeat for several).",
                                          repeatable: true)
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
                         + "report does.",
                         "Instead of jid, a CSV may have a username column: each name is that user on --domain, or on the "
                         + "account's own domain without it (a list of colleagues from the user directory: username,name). "
                         + "--group puts every contact of the file in GROUP as well as in the groups the file gives; for a "
                         + "contact already there, in GROUP as well as its present groups when the file has no groups column.",
                         "This changes one account's roster, and asks each new contact for a subscription that the contact "
                         + "still has to approve. To give many accounts each other, approved both ways, use the groups and "
                         + "contacts columns of xmpp-register batch; for a group the server shows to all its members, the "
                         + "server's shared rosters (Prosody mod_groups, ejabberd mod_shared_roster)."],
            options: [dryRun, noSubscribe, domain, group] + PasswordSource.declarations,
            positionals: [file],
            examples: [Example("xmpp-roster export -a old@example.org | xmpp-roster import - -a new@example.net --dry-run",
                               "Show what moving a roster would change."),
                       Example("xmpp-roster import staff.csv --domain school.example --group Staff",
                               "Add everyone of a username,name list to the group Staff and ask each for a subscription.")])

        let context: AccountContext
        let path: String
        let dryRun: Bool
        let subscribe: Bool
        let domain: String?
        let extraGroups: [String]

        init(_ invocation: Invocation) throws {
            context = invocation.passwordContext
            path = invocation.command.argument(Self.file.name) ?? "-"
            dryRun = invocation.command[Self.dryRun]
            subscribe = !invocation.command[Self.noSubscribe]
            do {
                domain = try invocation.command.value(Self.domain)
                extraGroups = try invocation.command.values(Self.group)
            } catch {
                throw ToolFailure(.usage, error.reason.description)
            }
            if let bad = extraGroups.first(where: { $0.isEmpty || !RosterFile.isValidText($0) }) {
                throw ToolFailure(.usage, "--group '\(bad)': a group name is some text without control characters")
            }
        }

        func run() throws {
            if path == "-" { try context.passwordForRun?.refuseStandardInput(sharedWith: "the roster") }
            let entries = try RosterFile.parse(try InputFile.read(path, limit: RosterFile.maxBytes, what: "the roster file"), domain: domain)
            let account = try context.accountJID()
            let wanted = try ImportPlan.resolve(entries, account: account)
            let session = try RosterSession.open(context)
            defer { session.close() }
            try session.sync()
            let plan = ImportPlan(wanted.entries, roster: session.roster, skipped: wanted.skipped, subscribeAllowed: subscribe,
                                  extraGroups: extraGroups)
            var failures: [String] = []
            if !dryRun { failures = try apply(plan, session) }
            report(plan, failures: failures)
            if !failures.isEmpty { throw ToolFailure(.failed, "\(failures.count) contact(s) could not be imported") }
        }

        /// Sends the roster sets (pipelined by `RosterChanges`), then the subscription requests in one write.
        private func apply(_ plan: ImportPlan, _ session: RosterSession) throws -> [String] {
            let changes = RosterChanges(window: 50)
            for item in plan.add.map(\.0) + plan.update.map(\.new) { changes.set(item) }
            try session.send(changes)
            for (jid, error) in changes.refused { context.environment.warn("cannot import \(jid): \(error)") }
            let failed = Set(changes.refused.map(\.jid))
            let subscribes = plan.add.filter { $0.subscribe && !failed.contains($0.0.jid) }
                .map { PresenceService.subscription(.subscribe, to: $0.0.jid).element }
            _ = try session.barrier(sending: subscribes)
            return changes.refused.map { "\($0.jid): \($0.error)" }
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
