import TextFormats
import XMPPBatch
import XMPPStanzas

/// How `xmpp-register sync` shows its plan: lines for people (leavers first), or one JSON object
/// with stable field names for scripts.
enum SyncPlanOutput {
    /// The plan as text lines (each escaped when printed with `Output.textLine`).
    static func lines(_ plan: SyncPlan, removalLimit: Int) -> [String] {
        var out: [String] = []
        for a in plan.adoptions {
            out.append("adopt    \(a.jid)  (it existed before sync: managed from now on; nothing created again, no password changed"
                       + (a.withPassword ? ")" : "; no password for it in the report, --adopt-report or the file, so its profile and roster "
                          + "are neither read nor changed: enable, disable and delete work)"))
        }
        let adoptions = out.count
        for d in plan.drift { out.append("drift    \(d.jid)  \(d.what): \(d.action)") }
        for u in plan.unverified { out.append("unverified \(u.jid)  (\(u.why)): not checked against the server, not drift") }
        let notes = out.count - adoptions
        for leaver in plan.leavers {
            switch leaver.action {
            case .disable: out.append("disable  \(leaver.jid)  (left the file)")
            case .delete:
                out.append("delete   \(leaver.jid)  (" + (leaver.wasDisabled ? "left earlier, disabled" : "left the file") + "; --prune delete)")
            case .gone: out.append("forget   \(leaver.jid)  (left the file, and deleted on the server already)")
            case .cannotDisable:
                out.append("keep     \(leaver.jid)  (left the file, but the server offers no disable-user; "
                           + "--prune delete deletes it)")
            }
        }
        for group in plan.groupsLeaving {
            out.append("group    '\(group.name)'  (all \(group.accounts) of its accounts left the file)")
        }
        let groupNotes = plan.groupsLeaving.count
        for jid in plan.notManaged {
            out.append("skip     \(jid)  (it existed before sync: not managed, left alone"
                       + (plan.existedBefore.contains(jid) ? "; --adopt manages it)" : ")"))
        }
        let disabledOnServer = Set(plan.drift.filter { $0.what == "disabled on the server" }.map(\.jid))
        for jid in plan.reenable {
            out.append("enable   \(jid)  (" + (disabledOnServer.contains(jid) ? "disabled on the server" : "back in the file; sync had disabled it") + ")")
        }
        for c in plan.creations { out.append("create   \(c.jid)" + (c.recreated.map { "  (\($0))" } ?? "")) }
        for p in plan.profiles {
            let fields = p.fields.map { f in
                f.to == nil ? "\(f.field) \(quoted(f.from)) cleared (an emptied cell)" : "\(f.field) \(quoted(f.from)) → \(quoted(f.to))"
            }
            if !fields.isEmpty { out.append("profile  \(p.jid): " + fields.joined(separator: ", ")) }
            if p.avatar { out.append("avatar   \(p.jid): a new image") }
        }
        for r in plan.rosters {
            var parts: [String] = []
            if !r.add.isEmpty { parts.append("add " + names(r.add.map(\.jid))) }
            if !r.update.isEmpty { parts.append("set again (name, groups, subscription) " + names(r.update.map(\.jid))) }
            if !r.remove.isEmpty { parts.append("remove " + names(r.remove)) }
            out.append("roster   \(r.jid): " + parts.joined(separator: "; "))
        }
        let changes = plan.isEmpty ? "Nothing to change" : "Plan: \(count(out.count - notes - groupNotes - plan.notManaged.count, "change"))"
        out.append(changes + "; \(count(plan.unchanged, "managed account")) unchanged"
                   + (plan.removals > 0 ? "; \(plan.removals) to remove (limit \(removalLimit))" : "") + ".")
        return out
    }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    private static func quoted(_ text: String?) -> String { text.map { "'\($0)'" } ?? "(none)" }

    /// Up to three JIDs, then how many more.
    private static func names(_ jids: [JID]) -> String {
        let shown = jids.prefix(3).map(\.description).joined(separator: ", ")
        return jids.count > 3 ? shown + " and \(jids.count - 3) more" : shown
    }

    /// The version of the JSON plan: a minor version only adds fields; a major one would change
    /// or remove one. 1.1 added `format_version`, `refreshed`, `groups_leaving`, `adopt`, `drift`, `unverified`,
    /// the leaver action `gone`, and `to: null` for a cleared field.
    /// 1.2 added `shared_groups` (with `--rosters shared`).
    static let formatVersion = "1.2"

    /// The plan as JSON: `format_version`, `changes`, `refreshed`, `managed`, `unchanged`, `removals`, `removal_limit`, then the
    /// lists `leavers` (jid, action: disable, delete, cannot-disable or gone), `enable` (JIDs),
    /// `groups_leaving` (group, accounts), `adopt` (line, jid, password: true or false), `drift` (jid, what, action), `unverified` (jid, why),
    /// `not_managed` (JIDs), `create` (line, jid, note), `profile` (line, jid, fields: [field, from, to], avatar) and
    /// `roster` (line, jid, add and update: [jid, name, groups], remove: JIDs). Every key always.
    static func json(_ plan: SyncPlan, removalLimit: Int) -> JSONValue {
        func item(_ i: RosterItem) -> JSONValue {
            .object([("jid", .string(i.jid.description)), ("name", .optional(i.name)), ("groups", .array(i.groups.map(JSONValue.string)))])
        }
        return .object([
            ("format_version", .string(formatVersion)),
            ("changes", .bool(!plan.isEmpty)),
            ("refreshed", .bool(plan.refreshed)),
            ("managed", .int(plan.managed)),
            ("unchanged", .int(plan.unchanged)),
            ("removals", .int(plan.removals)),
            ("removal_limit", .int(removalLimit)),
            ("leavers", .array(plan.leavers.map { l in
                .object([("jid", .string(l.jid.description)), ("action", .string(l.action.rawValue)),
                         ("note", .optional(l.action == .cannotDisable ? "the server offers no disable-user; --prune delete deletes it" : nil))])
            })),
            ("enable", .array(plan.reenable.map { .string($0.description) })),
            ("groups_leaving", .array(plan.groupsLeaving.map { g in
                .object([("group", .string(g.name)), ("accounts", .int(g.accounts))])
            })),
            ("adopt", .array(plan.adoptions.map { a in
                .object([("line", .int(a.line)), ("jid", .string(a.jid.description)), ("password", .bool(a.withPassword))])
            })),
            ("drift", .array(plan.drift.map { d in
                .object([("jid", .string(d.jid.description)), ("what", .string(d.what)), ("action", .string(d.action))])
            })),
            ("unverified", .array(plan.unverified.map { u in
                .object([("jid", .string(u.jid.description)), ("why", .string(u.why))])
            })),
            ("not_managed", .array(plan.notManaged.map { .string($0.description) })),
            ("create", .array(plan.creations.map { c in
                .object([("line", .int(c.line)), ("jid", .string(c.jid.description)), ("note", .optional(c.recreated))])
            })),
            ("profile", .array(plan.profiles.map { p in
                .object([("line", .int(p.line)), ("jid", .string(p.jid.description)),
                         ("fields", .array(p.fields.map { f in
                             .object([("field", .string(f.field)), ("from", .optional(f.from)), ("to", .optional(f.to))])
                         })),
                         ("avatar", .bool(p.avatar))])
            })),
            ("roster", .array(plan.rosters.map { r in
                .object([("line", .int(r.line)), ("jid", .string(r.jid.description)), ("add", .array(r.add.map(item))),
                         ("update", .array(r.update.map(item))), ("remove", .array(r.remove.map { .string($0.description) }))])
            })),
        ])
    }
}
