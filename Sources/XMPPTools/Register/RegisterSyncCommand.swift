import Arguments
import TextFormats
import XMPPBatch
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

extension RegisterTool {
    /// `xmpp-register sync FILE --admin`: the file is the whole managed set; plan, then apply.
    struct Sync: ToolCommand {
        static let file = PositionalSpec("FILE", help: "The CSV or LDIF file of every managed account, or - for standard input.",
                                         completion: .file(extensions: ["csv", "ldif"]))
        static let admin = Flag("admin", help: "Use the logged-in administrator's XEP-0133 commands (required: sync creates, disables and deletes with them).")
        static let report = Option<String>(
            "report", value: "FILE", help: "The report of the managed accounts and their passwords (mode 0600, atomic); required to apply.",
            completion: .file(extensions: ["csv"]))
        static let dryRun = Flag("dry-run", help: "Print the plan and stop; nothing is changed or written.")
        static let adopt = Flag("adopt", help: "Put the file's accounts that exist but that sync did not create under management (no account re-created, no password changed).")
        static let adoptReport = Option<String>(
            "adopt-report", value: "REPORT", help: "A batch report holding the passwords of the accounts --adopt adopts (default: those in --report).",
            completion: .file(extensions: ["csv"]))
        static let noRefresh = Flag("no-refresh", help: "Plan from sync's state only, without reading the server first (no connection when nothing changed).")
        static let prune = Option<SyncPrune>.choice(
            "prune", value: "HOW", help: "What happens to accounts that left the file (default disable, where the server offers it).")
        static let yes = Flag("yes", help: "Apply a plan that removes more accounts than --max-removals.")
        static let maxRemovals = Option<Int>.integer(
            "max-removals", value: "N", help: "Accounts a plan may disable or delete without --yes (default: 10% of the managed ones, at least 5).",
            in: 0...1_000_000)
        static let domain = Option<String>("domain", value: "DOMAIN", help: "Domain for a username column and for JIDs written without @.")
        static let jobs = Option<Int>.integer("jobs", value: "N", help: "Streams at once (default 4).", in: 1...256)
        static let format = Batch.format
        static let map = Batch.map
        static let invite = Flag(
            "invite", help: "Hand new accounts out as invites (Prosody 13), not passwords.")
        static let reportByGroup = Batch.reportByGroup

        static let spec = CommandSpec(
            "sync", summary: "Make the server's managed accounts, profiles and rosters what a CSV file says: plan, then apply.",
            discussion: [
                "FILE lists every account that should exist in the managed set, with the columns batch reads (jid or "
                    + "username with --domain, optionally password, nickname, fullname, email, avatar, groups and contacts; "
                    + "see xmpp-register batch), or a directory's entries as LDIF (--format ldif, --map, as batch reads "
                    + "them: ldapsearch -LLL … | xmpp-register sync - --admin …). sync first reads the server (the refresh, below), compares the file with it and with what it "
                    + "applied last time, and makes a plan: accounts to create, profile fields to change (by field), avatars to replace, roster items to add, change or "
                    + "remove (both sides of every pair), and the accounts that left the file. --dry-run prints the plan "
                    + "and changes nothing; "
                    + "otherwise the plan is printed and applied.",
                "The refresh, by default, reads what the server holds of every managed account before planning, as "
                    + "terraform plan does: whether it exists, through the administrator's XEP-0133 commands (ejabberd's "
                    + "get-registered-users-list, one command for the domain; Prosody's user-stats, one per account), then, "
                    + "with --report, a log-in as each account in the file with the report's password (--jobs at a time) "
                    + "that reads whether it is enabled (Prosody 13 refuses a disabled account's log-in with "
                    + "account-disabled), its roster, its vcard-temp card, its PEP nickname (XEP-0172, what clients such as "
                    + "Conversations change when a user renames themselves) and its PEP avatar's id (XEP-0084). What changed "
                    + "on the server is drift, each difference on its own "
                    + "'drift' line with what the plan does: 'deleted on the server: created again, with a new password'; "
                    + "'disabled on the server: enabled'; 'contact J removed by its user: added again'; 'contact J: "
                    + "subscription none on the server: asked again'; 'contact J renamed or regrouped on the server: the "
                    + "file's name and groups again'; 'fullname changed on the server: 'xXx': 'Ann' from the file' (nickname "
                    + "and full name, for the columns the file has, the nickname in the card or the nickname node; an email "
                    + "of the file missing from the card is added again); 'photo changed on the server' or 'photo removed "
                    + "on the server': the file's photo again (for a row with an avatar: the published image's id is "
                    + "compared with that of the file's image as batch resizes it; an avatar node the server does not have "
                    + "is not compared); a leaver already deleted on the server is only forgotten. Contacts the "
                    + "users added themselves are never looked at. The refresh logs in with the password the report holds or, "
                    + "for a row with a password column (which the report never keeps), the file's own password, held in "
                    + "memory only and never written anywhere. An account whose password no longer logs in (its "
                    + "user changed it), or for which neither gives one, is listed as 'unverified': not checked, never drift. Without --report the refresh "
                    + "checks only existence; the rosters of accounts without managed contacts (all of them with --rosters "
                    + "shared) are not asked for, and a file without profile columns whose accounts have no roster to compare "
                    + "is refreshed without logging in as them where the server offers no disable-user (ejabberd, Prosody "
                    + "0.12): the administrator's list says which exist, and nothing else could differ (a changed password is "
                    + "then not listed as unverified). After applying, the accounts the run created, enabled or whose roster it "
                    + "changed are read back the same way (except one it created and has already logged in to, to set its "
                    + "profile, when it has no managed contacts): what the server did not keep (a contact missing, a subscription "
                    + "not both ways, an account still disabled) is named and counted as failed (exit status 1), and the "
                    + "next sync plans it again; an account with no password to log in with is named as not checked, "
                    + "which is no failure (the next sync lists it as unverified). --no-refresh plans from the state alone, as before: a file that has not "
                    + "changed then plans nothing and sends nothing, and no connection is even opened; avatars are then "
                    + "compared with the state only (the image file's SHA-256).",
                "sync manages only the accounts it created. Its state, per domain, is "
                    + "$XDG_STATE_HOME/xmpp-tools/sync/DOMAIN.json (mode 0600, directories 0700, replaced atomically; no "
                    + "password; JSON lines, one account a line, read and written a line at a time; a state in the earlier "
                    + "one-document format is read and written as lines by the next change): the accounts it made, whether each is active, disabled or deleted, and the profile fields, "
                    + "avatar digest (SHA-256 of the image file) and roster items it last applied to each. An account it did "
                    + "not create (the administrator's own, one made by batch or by hand) is never changed, disabled or "
                    + "deleted: a row naming one is reported 'exists' the first time, then planned as 'skip', and no "
                    + "roster of another account gets it from sync. A file with an invalid row is refused whole (exit "
                    + "status 9): a row that cannot be read must not count as a leaver. For the profile columns the file has, the "
                    + "file is the whole truth: a new value replaces the one sync set (an email replaces the address sync "
                    + "set; other addresses the user added stay), and an emptied cell clears the field. A column the file "
                    + "does not have is not managed: to leave a field to the users, leave its column out (an emptied "
                    + "avatar cell leaves the photo as it is).",
                "--adopt puts the file's accounts that exist but that sync did not create (made by batch on day 1, "
                    + "or by hand) under management; they come first in the plan ('adopt'). Nothing is created again and "
                    + "no password changes: sync takes the file's profile values as applied and, with the account's "
                    + "password, reads its roster (the refresh) and plans what a batch of the same file left undone. The "
                    + "passwords come from --report (give batch's report as sync's --report), from --adopt-report "
                    + "REPORT, a batch report whose passwords are then kept in --report, or, for an account neither holds, "
                    + "from the file's own password column (the passwords batch made the accounts with): those are used to "
                    + "log in, held in memory only and never written to the report or any file, so such an account's "
                    + "profile and roster are managed like the others' for as long as the file gives its password. An "
                    + "account adopted without a password anywhere (made by hand) is managed for what the administrator's commands do (enable, disable, "
                    + "delete, and a password reset with xmpp-register passwd --admin); its profile and roster are neither "
                    + "read nor changed, no roster of the managed set gets it, and the plan says so, until a refresh finds a "
                    + "password for it in the report or the file: from then on it is managed like the others. Without --adopt such "
                    + "an account is left alone, as below.",
                "Accounts that left the file (leavers) come first in the plan. They are disabled with XEP-0133 "
                    + "disable-user where the server offers it (Prosody 13's mod_admin_adhoc); Prosody 0.12 and ejabberd "
                    + "(23.01, 24.12) offer no disable-user, and the plan then keeps them as they are and says that "
                    + "--prune delete deletes them. With --prune delete they are deleted (delete-user), those disabled "
                    + "earlier too. Either way every managed roster they were in drops them. An account sync disabled that "
                    + "comes back into the file is enabled again (reenable-user) with its old password. An account deleted "
                    + "with --prune delete, or with xmpp-register delete --admin (which tells sync's state), that is still "
                    + "or again in the file is planned as 'create' with a note saying so, and gets a new password. An "
                    + "account deleted by other means (prosodyctl, ejabberdctl) is found by the refresh and created again "
                    + "with a new password; with --no-refresh it is unknown to sync until a change logs in to it and fails.",
                "A truncated export must not wipe a school: a plan that disables or deletes more than --max-removals "
                    + "accounts (default 10% of the managed ones, but at least 5) stops before sending anything, with exit "
                    + "status 14, until it is run again with --yes; so does a plan that disables or deletes every managed "
                    + "account, however few they are. An empty input, or an LDIF cut short, is refused before any plan "
                    + "(exit status 9; see batch).",
                "Applying needs --report FILE: the accounts' passwords are kept there (generated for rows without a "
                    + "password column value, 24 letters and digits as batch makes them), and profile and roster changes log "
                    + "in as each account with them. The report lists every row of FILE, then the passwords of accounts no "
                    + "longer in it (status kept), so no password is ever lost. The work is that of batch --admin "
                    + "--generate-passwords, journaled in REPORT.journal: add-user for new accounts, a log-in per account "
                    + "whose profile changed that sets only the changed fields (and the avatar only when its image did), and "
                    + "the roster passes for the accounts whose roster items change (removals first; removing an item "
                    + "cancels both subscriptions). An interrupted sync (Ctrl-C, a crash) is continued by running the same "
                    + "sync again: the state takes a run's outcome only once every row is finished. A row that failed is "
                    + "planned again next time.",
                "The report also has, after its other columns (which keep their names and places), created: the day "
                    + "(UTC) sync created the account, kept by every later sync while the account has the password it was "
                    + "created with (an account created again gets the new day; one sync did not create is empty). Later "
                    + "syncs report every row as 'exists', so this column, and handout's handed_out, tell this week's new "
                    + "accounts from the rest: xmpp-register handout prints only the slips not printed yet. --report-by-group "
                    + "DIR writes the report once more split by the groups column, as batch does (DIR/group-NAME.csv, "
                    + "DIR/ungrouped.csv, mode 0600, in the input's own CSV dialect), whenever the report is written (a sync "
                    + "with nothing to change writes neither, and says so when DIR does not exist yet); see xmpp-register batch.",
                "--invite hands the accounts a run creates out as invites instead of passwords: each person opens the "
                    + "invite (its QR code on handout's slip) in Conversations, Monal or Siskin and chooses their own "
                    + "password, which nobody else has seen. The account is created as without --invite, with a generated "
                    + "password that sync keeps in the report and logs in with to set its profile and roster; then the "
                    + "administrator asks the server for a password-reset invite bound to that address (Prosody 13's "
                    + "mod_invites_adhoc command xmpp:prosody.im/mod_invites_adhoc#password-reset; its URI is "
                    + "xmpp:JID?register;preauth=TOKEN, XEP-0401), and the report gets the columns invite, landing_page and "
                    + "invite_expires beside the password; handout prints the invite rather than the password when a row has "
                    + "both. XEP-0401's own create-account invites are not used: they let the person pick any name, so the "
                    + "file's address would never be made. Prosody makes these invites valid for 24 hours: print and hand "
                    + "them out the same day; an account whose invite expired unused still signs in with the report's "
                    + "password, and a new invite is made with xmpp-adhoc run "
                    + "xmpp:prosody.im/mod_invites_adhoc#password-reset --field accountjid=JID. Once its person has set "
                    + "their own password, sync can no longer log in as the account: the refresh lists it as 'unverified', "
                    + "and a later profile or roster change of that account fails (server-side groups keep class rosters "
                    + "changing without it). A server without the command (Prosody 0.12, ejabberd 23.01 and 24.12, Prosody "
                    + "without mod_invites_adhoc) stops sync --invite before the plan is printed or anything is sent, with "
                    + "exit status 4 naming the server: there is no silent fallback to passwords; run without --invite to "
                    + "hand out passwords. An invite the server does not make is named on standard error with the "
                    + "xmpp-adhoc command above, counted as failed (exit status 1), and its row keeps only the password.",
                "--json prints the plan as one JSON object: format_version (\"1.2\"; a new minor version only adds "
                    + "fields), changes (true or false), refreshed (true unless --no-refresh), managed, unchanged, removals, "
                    + "removal_limit, leavers (jid, action: disable, delete, cannot-disable or gone, note), enable (JIDs), "
                    + "drift (jid, what, action), unverified (jid, why), not_managed "
                    + "(JIDs), create "
                    + "(line, jid, note), profile (line, jid, fields: field, from, to; avatar: true or false) and roster "
                    + "(line, jid, add and update: jid, name, groups; remove: JIDs). Applying, one JSON Line per account "
                    + "follows: leavers and returning accounts as {jid, status: disabled, deleted, enabled or failed, error, "
                    + "note}, then the rows as batch --json prints them.",
                "Exit status: 0 when there was nothing to change (with --dry-run: the plan is empty), 13 when changes "
                    + "were made and none failed (--dry-run: the plan has changes or drift), 1 when some change failed (the next sync "
                    + "plans it again), 14 when the removal limit stopped it. The other statuses are those of batch. For "
                    + "a cron job that watches for drift, sync --dry-run exits 0 for an empty plan and 13 for one that is not "
                    + "empty, distinct from every failure (1 to 12, 130, 143): "
                    + "xmpp-register sync school.csv --admin --report school-pw.csv --dry-run -q; [ $? = 13 ] && mail ...",
            ] + SyncSharedRosters.manual,
            options: [admin, report, reportByGroup, invite, dryRun, noRefresh, adopt, adoptReport, prune, yes, maxRemovals, domain, jobs,
                      format, map] + SyncSharedRosters.declarations,
            positionals: [file],
            rules: [.requires("report-by-group", "report", because: "the split is made from the report, which keeps every row")],
            examples: [
                Example("xmpp-register sync school.csv --admin --report school-pw.csv --dry-run",
                        "Show what would change: accounts to create, fields, photos, rosters, leavers."),
                Example("xmpp-register sync school.csv --admin --report school-pw.csv",
                        "Apply it; the new accounts' passwords are in school-pw.csv."),
                Example("xmpp-register sync school.csv --admin --report school-pw.csv --invite && xmpp-register handout school-pw.csv -o new.pdf",
                        "Create the new pupils' accounts with invites, and print their slips (QR codes)."),
                Example("xmpp-register sync school.csv --admin --report school-pw.csv --adopt",
                        "Put a school made earlier with batch --report school-pw.csv under sync, passwords unchanged."),
                Example("xmpp-register sync school.csv --admin --report school-pw.csv --dry-run --json | jq '.drift'",
                        "What changed on the server since the last sync."),
                Example("xmpp-register sync school.csv --admin --report school-pw.csv --dry-run --json | jq '.leavers[].jid'",
                        "List the accounts that left the file."),
                Example("xmpp-register sync school.csv --admin --report school-pw.csv --prune delete --yes",
                        "Delete the leavers (where disable-user is not offered), past the removal limit."),
            ]
        )

        let context: AccountContext
        let input: String
        let options: SyncOptions
        /// False with `--no-refresh`.
        let refresh: Bool
        /// `--adopt`, and `--adopt-report`.
        let adoption: (on: Bool, report: String?)
        /// `--format`, `--map`: the input's format and an LDIF's attribute map, as batch takes them.
        let reading: (format: BatchInputFormat?, map: String?)
        /// `--rosters shared`: the server's shared roster groups; nil for per-account rosters.
        let shared: SyncSharedRosters?
        /// `--invite`, and `--report-by-group DIR`.
        let handout: (invite: Bool, byGroup: String?)

        init(_ invocation: Invocation) throws {
            context = invocation.context
            let command = invocation.command
            input = command.argument(Self.file.name) ?? "-"
            guard command[Self.admin] else {
                throw ToolFailure(.usage, "sync needs --admin: it creates, disables and deletes accounts with the administrator's XEP-0133 commands")
            }
            do {
                options = SyncOptions(report: try command.value(Self.report), dryRun: command[Self.dryRun],
                                      prune: try command.value(Self.prune) ?? .disable, yes: command[Self.yes],
                                      maxRemovals: try command.value(Self.maxRemovals), domain: try command.value(Self.domain),
                                      jobs: try command.value(Self.jobs) ?? BatchConfiguration.defaultJobs)
                reading = (try command.value(Self.format), try command.value(Self.map))
                refresh = !command[Self.noRefresh]
                adoption = (command[Self.adopt], try command.value(Self.adoptReport))
                handout = (command[Self.invite], try command.value(Self.reportByGroup))
            } catch {
                throw ToolFailure(.usage, error.reason.description)
            }
            if adoption.report != nil && !adoption.on {
                throw ToolFailure(.usage, "--adopt-report names the passwords of accounts to adopt: give --adopt with it")
            }
            shared = try SyncSharedRosters(invocation, input: input)
            if options.report == nil && !options.dryRun {
                throw ToolFailure(.usage, "sync needs --report FILE (mode 0600): the managed accounts' passwords are kept there")
            }
        }

        private var env: ToolEnvironment { context.environment }

        func run() throws {
            var configuration = BatchConfiguration()
            configuration.domain = options.domain
            configuration.generatePasswords = true
            configuration.admin = true
            configuration.jobs = options.jobs
            configuration.timeout = context.common.timeout
            configuration.resource = context.common.resource
            configuration.sharedGroups = shared != nil  // the server's groups give the rosters: no roster items
            let json = context.common.json
            let output = BatchOutput(program: env.program, json: json, quiet: context.common.quiet,
                                     showProgress: Output.stderrIsTTY && !context.common.quiet)
            let source = BatchSheetInput(path: input, environment: env)
            let reportPath = options.report.map(source.absolute)
            configuration.reportByGroup = handout.byGroup.map(source.absolute)
            try source.requireDistinct(output: options.report, option: "--report")
            let sheet = try source.sheet(configuration: &configuration, format: reading.format, map: reading.map, output: output)
            if !sheet.invalid.isEmpty {
                // A row that cannot be read must not count as a leaver: nothing is planned.
                for bad in sheet.invalid { output.row(RowOutcome(invalid: bad)) }
                throw ToolFailure(.badInput, "\(sheet.invalid.count) invalid row\(sheet.invalid.count == 1 ? "" : "s"); "
                                  + "nothing was planned (sync needs every row of the managed set)")
            }
            let adminJID = try context.accountJID()
            let sync = try SyncRun(sheet: sheet, configuration: configuration, stateDirectory: env.paths.state,
                                   domains: [adminJID.domain] + (options.domain.map { [$0] } ?? []))
            // Without a refresh, the server is asked only when someone left: whether it offers disable-user.
            let askFor = options.prune == .disable ? sync.domainsWithLeavers : []
            for note in sync.fileNotes { output.note(note) }
            let continuing = SyncRun.continuesInterruptedRun(reportPath: reportPath)
            if refresh && continuing {
                output.note("continuing an interrupted sync as it was planned; the server is read again at the next sync")
            }
            let refreshing = refresh && !continuing && sync.hasAnythingToRefresh
            var adminLink: (connection: Connection, jid: JID)?
            defer { adminLink?.connection.close() }
            if !askFor.isEmpty || refreshing || adoption.on {
                let (connection, admin) = try context.connectWithSession()
                adminLink = (connection, admin)
                if adoption.on {
                    do {
                        try sync.adopt(on: connection, reportPath: reportPath, adoptReport: adoption.report.map(source.absolute))
                    } catch let error as AdHocError {
                        throw ErrorMapping.failure(for: error, account: adminJID)
                    }
                }
                do { try sync.learnDisableUser(domains: askFor, on: connection) } catch {
                    throw ErrorMapping.failure(for: error, account: adminJID)
                }
            }
            // Accounts adopted just now are read too.
            if refresh && !continuing && sync.hasAnythingToRefresh, let link = adminLink {
                try refreshState(sync, on: link.connection, reportPath: reportPath, output: output)
            }
            let plan = sync.plan(prune: options.prune)
            let limit = options.maxRemovals ?? SyncPlan.defaultRemovalLimit(managed: plan.managed)
            let groups = try shared?.plan(sheet: sheet, refresh: refresh, stateDirectory: env.paths.state)  // the server's groups, even when continuing
            if handout.invite && !plan.creations.isEmpty { try requireInvites(plan, adminLink: &adminLink) }
            if json {
                let value = SyncPlanOutput.json(plan, removalLimit: limit)
                Output.line((groups.map { SyncSharedRosters.json($0, into: value) } ?? value).compact)
            } else if !context.common.quiet || options.dryRun {
                var lines = SyncPlanOutput.lines(plan, removalLimit: limit)
                if let groups { lines += SyncSharedRosters.lines(groups) }
                for line in lines { Output.textLine(line) }
            }
            if plan.needsConfirmation(limit: limit) && !options.yes {
                let why = plan.removesEveryone ? "every one of the \(plan.managed) managed accounts"
                    : "\(plan.removals) of \(plan.managed) managed accounts, more than \(limit) (--max-removals)"
                throw ToolFailure(.confirmationNeeded, "the plan disables or deletes \(why); nothing was sent: check the file "
                                  + "(a truncated export?), then run again with --yes")
            }
            let groupsChange = groups.map { !$0.plan.isEmpty } ?? false
            if options.dryRun || (plan.isEmpty && !groupsChange) {
                if plan.isEmpty && !groupsChange {
                    if !options.dryRun, let shared, let groups { try shared.record(groups, stateDirectory: env.paths.state) }
                    return noteSplitNotWritten(output)
                }
                throw StatusOnly(.changesMade)
            }
            guard let reportPath else { return }
            if plan.isEmpty, let groups {
                let sent = try applyGroups(groups, output: output)
                output.note("sync done: \(sent) shared-group change\(sent == 1 ? "" : "s") on \(groups.plan.groups.domain)")
                throw StatusOnly(.changesMade)
            }
            try apply(plan, sync: sync, groups: groups, reportPath: reportPath, adminLink: &adminLink, output: output)
        }

        /// Sends the shared groups' changes (`--rosters shared`), one JSON Line per change made
        /// with --json, and records them; the number made.
        private func applyGroups(_ groups: SyncSharedRosters.Planned, output: BatchOutput) throws -> Int {
            guard let shared else { return 0 }
            let json = context.common.json
            return try shared.apply(groups, stateDirectory: env.paths.state) { step in
                if json { Output.line(SyncSharedRosters.json(done: step).compact) }
            }
        }

        /// Reads the server before planning: which managed accounts exist (the administrator's
        /// commands) and, with the report's passwords, each one's enabled state and roster.
        private func refreshState(_ sync: SyncRun, on connection: Connection, reportPath: String?, output: BatchOutput) throws {
            if reportPath == nil {
                output.note("without --report, the refresh checks only which managed accounts exist, not whether they are enabled "
                            + "or what their rosters hold (it logs in as each with the report's password)")
            }
            StopSignal.install(secondSignalKills: true)
            let endpoints = try accountEndpoints()
            do {
                try sync.refresh(on: connection, reportPath: reportPath, jobs: options.jobs, endpoint: endpoints.endpoint(for:),
                                 shouldStop: { StopSignal.stopRequested })
            } catch let error as AdHocError {
                throw ErrorMapping.failure(for: error, account: connection.boundJID?.bare)
            } catch let error as SyncRefreshInterrupted {
                throw ToolFailure(StopSignal.pending == 2 ? .interrupted : .terminated, error.description)
            }
            for domain in sync.facts.refresh?.unchecked ?? [] {
                output.note("\(domain)'s server offers this administrator no command that tells which accounts exist "
                            + "(get-registered-users-list, user-stats): deleted accounts are not seen")
            }
        }

        /// Where the accounts' log-ins connect: the command line's settings, or for the
        /// administrator's domain what xmpp-login remembered for the administrator.
        private func accountEndpoints() throws -> BatchEndpoints {
            let jid = try context.accountJID()
            let administrator = try env.accounts.load().accounts[jid.bare.description].map { (jid: jid, settings: $0) }
            return BatchEndpoints(context: context, administrator: administrator)
        }

        /// The plan applied: leavers and returning accounts, the batch run (accounts, profiles,
        /// rosters), then the shared groups' changes — after the accounts, so that a new account's
        /// profile log-in publishes its nickname to no shared-group contacts yet (on ejabberd 24.12
        /// each publish otherwise walks the whole shared roster: DESIGN-NOTES) — then the read-back.
        private func apply(_ plan: SyncPlan, sync: SyncRun, groups: SyncSharedRosters.Planned?, reportPath: String,
                           adminLink: inout (connection: Connection, jid: JID)?, output: BatchOutput) throws {
            func sendGroups() throws {
                guard let groups else { return }
                let sent = try applyGroups(groups, output: output)
                if sent > 0 { output.note("\(sent) shared-group change\(sent == 1 ? "" : "s") made on \(groups.plan.groups.domain)") }
            }
            var adminOutcomes: [SyncRun.AdminOutcome] = []
            let adminWork = plan.removals > 0 || !plan.reenable.isEmpty || plan.leavers.contains { $0.action == .gone }
            if adminWork {
                if adminLink == nil {
                    let (connection, admin) = try context.connectWithSession()
                    adminLink = (connection, admin)
                }
                guard let link = adminLink else { return }
                adminOutcomes = try sync.applyLeavers(plan, on: link.connection, today: SyncClock.today())
                for outcome in adminOutcomes {
                    if context.common.json {
                        Output.line(JSONValue.object([("jid", .string(outcome.jid.description)), ("status", .string(outcome.status.rawValue)),
                                                      ("error", .optional(outcome.error)), ("note", .optional(outcome.note))]).compact)
                    } else if outcome.status == .failed {
                        output.note("\(outcome.jid): \(outcome.error ?? "failed")")
                    }
                }
            }
            adminLink?.connection.close()
            adminLink = nil
            guard SyncRun.needsBatch(plan) else {
                try sendGroups()
                return try conclude(SyncSummary(admin: adminOutcomes, entries: [], plan: plan, seconds: output.elapsedSeconds),
                                    reportPath: nil, output: output)
            }
            let run: BatchRun
            do { run = try sync.batchRun(plan, reportPath: reportPath) } catch let error as JournalError {
                throw Self.journalFailure(error)
            }
            if run.resumed { output.note("continuing the interrupted sync recorded in \(run.journal.path)") }
            let batchPlan = try sync.batchPlan(run, plan)
            let session = try AdminLogin.session(context)
            let (end, fatal) = try run.executeShowingProgress(batchPlan, context: context, admin: session, output: output)
            let invites = handout.invite ? issueInvites(plan, run: run, output: output) : (made: 0, problems: [])
            let finish = try run.finish()
            let foreign = try sync.absorb(finish, plan: plan)
            for jid in foreign { output.note("\(jid) existed already and sync did not create it: it is left alone") }
            let reportProblem = finish.reportFailure.map { "cannot write the report: \($0) (the journal \(run.journal.path) has every outcome)" }
                ?? finish.groupReportFailure.map { "cannot write the report split by group: \($0) (the report \(reportPath) has every row)" }
            let summary = BatchSummary(entries: finish.entries, ranFor: output.elapsedSeconds, finishedThisRun: run.finishedThisRun,
                                       rostersThisRun: run.rostersThisRun)
            if fatal != nil || end == .interrupted || reportProblem != nil {
                var verdict = BatchVerdict(end: end, fatal: fatal, summary: summary, finished: finish.finished, journalPath: run.journal.path,
                                           reportPath: reportPath, reportProblem: reportProblem)
                verdict.resumeHint = "; run the same sync again to continue (journal: \(run.journal.path))"
                try verdict.conclude(output: output)
            }
            try sendGroups()
            var result = SyncSummary(admin: adminOutcomes, entries: finish.entries, plan: plan, seconds: output.elapsedSeconds)
            result.invites(made: invites.made, failed: invites.problems.count, seconds: output.elapsedSeconds)
            if refresh && finish.finished && result.failures == 0 {
                // What it applied, read back: what the server did not keep is a failure, not "changed".
                let endpoints = try accountEndpoints()
                let readBack = try sync.verify(plan, entries: finish.entries, reportPath: reportPath, jobs: options.jobs,
                                               endpoint: endpoints.endpoint(for:), shouldStop: { StopSignal.stopRequested })
                for line in readBack.unchecked { output.note(line) }
                for problem in readBack.problems { output.note(problem) }
                result.notKept(readBack.problems.count, seconds: output.elapsedSeconds)
            }
            try conclude(result, reportPath: reportPath, output: output)
        }

        /// 13 when every change went through, 1 when some failed.
        private func conclude(_ summary: SyncSummary, reportPath: String?, output: BatchOutput) throws {
            if summary.failures > 0 {
                throw ToolFailure(.failed, "sync: " + summary.text + "; the next sync plans what failed again")
            }
            output.note("sync done: " + summary.text + (reportPath.map { "; report: \($0)" } ?? ""))
            throw StatusOnly(.changesMade)
        }

        /// A journal sync cannot take over, in sync's words (there is no --resume: the same sync continues).
        static func journalFailure(_ error: JournalError) -> ToolFailure {
            switch error {
            case .unfinished(let path, _, _, _, let passwords, _, _), .mismatch(let path, _, let passwords, _):
                return ToolFailure(.usage, "\(path) records an unfinished sync of another file or state: run that sync again "
                                   + "with its file to finish it, then this one"
                                   + (passwords > 0 ? " (keep that file: it holds the only copy of \(passwords) generated passwords)" : ""))
            default:
                return ErrorMapping.failure(for: error)
            }
        }
    }
}
