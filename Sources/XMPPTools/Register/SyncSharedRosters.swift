import Arguments
import TextFormats
import XMPPBatch

/// `xmpp-register sync --rosters shared`: the file's rosters kept as the server's shared roster
/// groups (`SharedGroupsPlan`, the engine of `shared-groups --apply`) instead of per-account
/// roster items; the accounts themselves are synced as always. What it planned from (the
/// server's groups, or with `--no-refresh` sync's state of them) and what it sends.
struct SyncSharedRosters {
    /// `--rosters`.
    enum Rosters: String, CaseIterable {
        case perAccount = "per-account", shared
    }

    static let rosters = Option<Rosters>.choice(
        "rosters", value: "HOW",
        help: "Class rosters per account (the default) or as the server's shared groups.")
    static let server = Option<SharedGroups.Kind>.choice(
        "for", value: "SERVER", help: "The server of --rosters shared.")
    /// What sync declares for it.
    static let declarations: [any DeclaredOption] = [rosters, server] + SharedGroupsAccess.declarations + PasswordSource.declarations

    /// The manual's paragraphs.
    static let manual = [
        "--rosters shared gives the accounts their contacts through the server's shared roster groups "
            + "instead of per-account roster items: the groups column's groups become the server's groups, with the members "
            + "the file gives them (as xmpp-register shared-groups makes them, with its checks: a file the server's model "
            + "cannot express exactly is refused, exit status 9), and sync sets no roster item in any account (items an "
            + "earlier per-account sync made are removed, so that nobody sees a contact twice). Each run reads the server's "
            + "groups, compares them with the file, and plans and sends only the membership changes, each on a 'shared' line "
            + "of the plan (shared_groups in --json: server, domain, changes, each with action make-group, set-group, add, "
            + "remove, delete-group, write-file or reload, and group, jid, shows, path or host): a new pupil is one member "
            + "added, a move one removed and one added, a leaver one removed, a class that is new or gone a group made or "
            + "deleted. --for SERVER names the server. The groups are applied after the accounts are created, disabled or "
            + "deleted and their profiles set (a new account's profile is then published before anyone shares a roster with "
            + "it), and before the read-back; applying with --json, each change made is one JSON Line, {shared_group: the "
            + "change as in the plan, status: done}. What sync applied is kept beside its state, in DOMAIN.groups.json (mode 0600): --no-refresh plans "
            + "ejabberd's groups from it without reading the API (Prosody's groups file is always read); a run stopped "
            + "after writing Prosody's file and before the reload reloads it the next time; any other run stopped half-way "
            + "is completed by the next, which reads the server again. Exit status as for the rest of sync; an admin "
            + "interface that cannot be reached is 6, one that refuses for want of rights 12.",
        "ejabberd (24.12; mod_shared_roster is in its default configuration) is reached through its HTTP API, "
            + "mod_http_api (--api URL, default https://DOMAIN:5443/api; on in the packaged configuration, whose "
            + "api_permissions allow it from loopback to an administrator: when the API refuses without credentials, the "
            + "administrator's password (the account sync runs as) is asked for on the terminal, or read with "
            + "--password-file, --password-stdin (not with FILE -) or XMPP_PASSWORD, used for this run only and never kept; "
            + "--ca-file for a private certificate): srg_create for a new group, srg_user_add and srg_user_del for each "
            + "changed member, srg_delete for a group the file no longer has; only groups whose description is "
            + "'xmpp-register shared-groups' are ever changed or deleted. ejabberd pushes each change to the members who "
            + "are online: their rosters gain or lose the contact at once, and nobody is disconnected. Where the API is "
            + "off, --ejabberdctl COMMAND reaches the groups through ejabberdctl on the server's machine instead (e.g. "
            + "'sudo -u ejabberd ejabberdctl'; the same srg_* commands, each call an Erlang VM of about half a second to "
            + "two, so a first sync of a large school takes minutes; xmpp-register shared-groups FILE --for ejabberd prints "
            + "them as a script to run elsewhere).",
        "Prosody (13, with mod_groups loaded once by hand: \"groups\" in modules_enabled, groups_file, a restart) is "
            + "reached through the groups file (--groups-file PATH, the file groups_file names), rewritten atomically when "
            + "its text changes, and the admin shell, on in Prosody 13's packaged configuration (prosodyctl shell module "
            + "reload groups DOMAIN; --prosodyctl COMMAND runs it, e.g. 'sudo -u prosody prosodyctl'): mod_groups is "
            + "reloaded, nobody is disconnected, and each account sees its new contacts at its next log-in once all its "
            + "sessions have ended, since mod_groups builds a roster when the roster is loaded (sync empties the host's "
            + "cache of offline accounts' rosters through the same shell, or a roster Prosody cached to answer a presence "
            + "probe would keep the old groups past that log-in).",
    ]

    let kind: SharedGroups.Kind
    let access: SharedGroupsAccess

    /// The options of `invocation`; nil for per-account rosters (the default).
    init?(_ invocation: Invocation, input: String) throws {
        let command = invocation.command
        let rosters: Rosters?, kind: SharedGroups.Kind?, api: String?, file: String?, prosodyctl: String?, ejabberdctl: String?
        do {
            rosters = try command.value(Self.rosters)
            kind = try command.value(Self.server)
            (api, ejabberdctl, file, prosodyctl) = try SharedGroupsAccess.values(command)
        } catch {
            throw ToolFailure(.usage, error.reason.description)
        }
        let givesPassword = invocation.password.file != nil || invocation.password.stdin
        guard rosters == .shared else {
            if givesPassword {
                throw ToolFailure(.usage, "--password-file and --password-stdin give the administrator's password for ejabberd's API: "
                                  + "they go with --rosters shared --for ejabberd")
            }
            if kind != nil || api != nil || file != nil || prosodyctl != nil || ejabberdctl != nil {
                throw ToolFailure(.usage, "--for, --api, --ejabberdctl, --groups-file and --prosodyctl name the server's shared groups: "
                                  + "give --rosters shared with them")
            }
            return nil
        }
        guard let kind else { throw ToolFailure(.usage, "--rosters shared needs --for SERVER: prosody (its groups file) or ejabberd (its HTTP API)") }
        if kind == .ejabberd && (file != nil || prosodyctl != nil) {
            throw ToolFailure(.usage, "--groups-file and --prosodyctl are Prosody's: ejabberd's groups are reached through --api")
        }
        if kind == .prosody && (api != nil || ejabberdctl != nil) {
            throw ToolFailure(.usage, "--api and --ejabberdctl are ejabberd's: Prosody's groups are reached through --groups-file")
        }
        if api != nil && ejabberdctl != nil { throw ToolFailure(.usage, "--api or --ejabberdctl: ejabberd's groups are reached through one of them") }
        if givesPassword && (kind == .prosody || ejabberdctl != nil) {
            throw ToolFailure(.usage, "--password-file and --password-stdin give the administrator's password for ejabberd's API, "
                              + "which \(kind == .prosody ? "Prosody's groups file" : "--ejabberdctl") does not use")
        }
        let password = invocation.password
        if input == "-" { try password.refuseStandardInput(sharedWith: "the file") }
        self.kind = kind
        access = SharedGroupsAccess(context: invocation.context, password: password, api: api, groupsFile: file,
                                    prosodyctl: prosodyctl ?? "prosodyctl", ejabberdctl: ejabberdctl, needsFile: "--rosters shared --for prosody")
    }

    /// One run's groups: the plan, and the server it is sent to (nil: not reached yet, with
    /// `--no-refresh` on ejabberd).
    struct Planned {
        let plan: SharedGroupsPlan
        var server: SharedGroupsPlan.Server?
        /// How the server is reached, for the plan's summary line.
        let via: String
    }

    /// How the server is reached, in the plan's words.
    private var via: String {
        kind == .prosody ? "Prosody's groups file and admin shell" : access.ejabberdctl == nil ? "ejabberd's HTTP API" : "ejabberdctl"
    }

    /// The sheet's groups, planned against the server's (`refresh`) or, for ejabberd without a
    /// refresh, against the state.
    func plan(sheet: BatchSheet, refresh: Bool, stateDirectory: String) throws -> Planned {
        let groups: SharedGroups
        do { groups = try SharedGroups(sheet: sheet, kind: kind) } catch {
            throw ToolFailure(.badInput, "--rosters shared: " + error.description)
        }
        let state = try SyncGroupsState.load(domain: groups.domain, stateDirectory: stateDirectory)
        switch kind {
        case .ejabberd:
            guard refresh else {
                let known = state?.server == .ejabberd ? state?.groups ?? [] : []
                return Planned(plan: SharedGroupsPlan(ejabberd: groups, current: known), server: nil, via: via)
            }
            let (api, current) = try access.ejabberd(domain: groups.domain)
            return Planned(plan: SharedGroupsPlan(ejabberd: groups, current: current), server: .ejabberd(api), via: via)
        case .prosody:
            let file = try access.prosody()
            return Planned(plan: .sync(prosody: groups, existing: file.existing, path: file.path, state: state?.server == .prosody ? state : nil),
                           server: .prosody(file.shell), via: via)
        }
    }

    /// The plan's lines, before sync's summary line, and a summary of their own.
    static func lines(_ planned: Planned) -> [String] {
        let plan = planned.plan
        return plan.steps.map { "shared   " + $0.description }
            + [(plan.isEmpty ? "Shared groups: nothing to change" : "Shared groups: \(plan.changes) membership or group change\(plan.changes == 1 ? "" : "s")")
               + " on \(plan.groups.domain), through \(planned.via)."]
    }

    /// sync's JSON plan with `shared_groups` added, and `changes` true when the groups change.
    static func json(_ planned: Planned, into value: JSONValue) -> JSONValue {
        guard case .object(var members) = value else { return value }
        let plan = planned.plan
        if !plan.isEmpty, let i = members.firstIndex(where: { $0.0 == "changes" }) { members[i].1 = .bool(true) }
        members.append(("shared_groups", .object([("server", .string(plan.groups.kind.rawValue)), ("domain", .string(plan.groups.domain)),
                                                  ("changes", .array(plan.steps.map(\.json)))])))
        return .object(members)
    }

    /// One change made, as a JSON Line while applying: {"shared_group": the plan's change (action,
    /// group, jid, shows, path, host), "status": "done"}.
    static func json(done step: SharedGroupsApply.Step) -> JSONValue {
        .object([("shared_group", step.json), ("status", .string("done"))])
    }

    /// Records the groups as the server has them when the plan is empty (read from it, they
    /// are the file's): a later `--no-refresh` plans from them.
    func record(_ planned: Planned, stateDirectory: String) throws {
        try planned.plan.appliedState.save(domain: planned.plan.groups.domain, stateDirectory: stateDirectory)
    }

    /// Sends the plan (reaching ejabberd's API now when the plan was made from the state) and
    /// records what was applied; the number of steps sent.
    func apply(_ planned: Planned, stateDirectory: String, made: (SharedGroupsApply.Step) -> Void = { _ in }) throws -> Int {
        let plan = planned.plan
        var done = 0
        if !plan.isEmpty {
            let server: SharedGroupsPlan.Server
            if let known = planned.server { server = known } else { server = .ejabberd(try access.ejabberd(domain: plan.groups.domain).0) }
            done = try SharedGroupsAccess.apply(plan, through: server, made: made)
        }
        try record(planned, stateDirectory: stateDirectory)
        return done
    }
}
