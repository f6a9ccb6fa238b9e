#if canImport(Glibc)
import TextFormats
import Glibc
#endif
import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// `xmpp-roster export|import`: move a roster between accounts or servers with names and groups.
struct TransferCommands {
    let invocation: Invocation

    func export() throws {
        let session = try RosterSession.open(invocation.context)
        defer { session.close() }
        try session.sync()
        let items = session.items
        if invocation.command.string("format") == "csv" {
            Output.out(RosterFile.csv(items))
        } else {
            Output.line(JSONValue.array(items.map { RosterOutput.json($0, presence: nil) }).pretty)
        }
    }

    /// What an import changes.
    struct Plan {
        var add: [(RosterItem, subscribe: Bool)] = []
        var update: [(new: RosterItem, old: RosterItem)] = []
        var unchanged = 0
        var skipped: [String] = []
    }

    func importRoster() throws {
        let path = invocation.command.argument("FILE") ?? "-"
        let entries = try RosterFile.parse(try read(path))
        let account = try invocation.context.accountJID()
        let wanted = try resolve(entries, account: account)
        let session = try RosterSession.open(invocation.context)
        defer { session.close() }
        try session.sync()
        let plan = makePlan(wanted.entries, roster: session.roster, skipped: wanted.skipped)
        let dryRun = invocation.command.flag("dry-run")
        var failures: [String] = []
        if !dryRun { failures = try apply(plan, session) }
        report(plan, dryRun: dryRun, failures: failures)
        if !failures.isEmpty { throw ToolFailure(.failed, "\(failures.count) contact(s) could not be imported") }
    }

    private func read(_ path: String) throws -> [UInt8] {
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ToolFailure(.badInput, "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { if fd != 0 { close(fd) } }
        let bytes = readAll(fd: fd, limit: RosterFile.maxBytes + 1)
        return bytes
    }

    /// Resolves every JID first, so a bad file changes nothing; the account itself is skipped.
    private func resolve(_ entries: [RosterFile.Entry], account: JID) throws -> (entries: [(JID, RosterFile.Entry)], skipped: [String]) {
        var out: [(JID, RosterFile.Entry)] = []
        var skipped: [String] = []
        var seen = Set<JID>()
        for (i, entry) in entries.enumerated() {
            if let own = try? JID(entry.jid.trimmingWhitespace()), own.bare == account.bare {
                skipped.append(own.bare.description)
                continue
            }
            let jid: JID
            do { jid = try ContactAddress.resolve(entry.jid, account: account) } catch {
                throw ToolFailure(.badInput, "contact #\(i + 1) of the roster file: \(error.message)")
            }
            let texts = (entry.groups ?? []) + [(entry.name ?? nil) ?? ""]
            guard texts.allSatisfy(RosterFile.isValidText) else {
                throw ToolFailure(.badInput, "contact #\(i + 1) of the roster file (\(jid)): control characters in a name or group")
            }
            guard seen.insert(jid).inserted else { continue }
            out.append((jid, entry))
        }
        return (out, skipped)
    }

    private func makePlan(_ entries: [(JID, RosterFile.Entry)], roster: [JID: RosterItem], skipped: [String]) -> Plan {
        var plan = Plan(skipped: skipped)
        let subscribeAllowed = !invocation.command.flag("no-subscribe")
        for (jid, entry) in entries {
            guard let old = roster[jid] else {
                let item = RosterItem(jid: jid, name: entry.name ?? nil, groups: entry.groups ?? [])
                plan.add.append((item, subscribeAllowed && entry.wantsSubscription))
                continue
            }
            var new = old
            if let name = entry.name { new.name = name }
            if let groups = entry.groups { new.groups = RosterItem(jid: jid, groups: groups).groups }
            if new.name != old.name || Set(new.groups) != Set(old.groups) {
                plan.update.append((new, old))
            } else {
                plan.unchanged += 1
            }
        }
        return plan
    }

    /// Sends the roster sets pipelined, fifty at a time, then the subscription requests in one write.
    private func apply(_ plan: Plan, _ session: RosterSession) throws -> [String] {
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
                    invocation.environment.warn("cannot import \(item.jid): \(e)")
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

    private func report(_ plan: Plan, dryRun: Bool, failures: [String]) {
        func groups(_ g: [String]) -> JSONValue { .array(g.map(JSONValue.string)) }
        if invocation.common.json {
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
        for jid in plan.skipped { invocation.environment.warn("skipped \(jid): it is the account itself") }
        guard !invocation.common.quiet else { return }
        let verb = dryRun ? "would add" : "added"
        let verb2 = dryRun ? "would update" : "updated"
        Output.err("\(invocation.environment.program): \(verb) \(plan.add.count), \(verb2) \(plan.update.count), "
                   + "\(plan.unchanged) unchanged" + (dryRun ? " (dry run: nothing changed)" : ""))
    }
}
