import Arguments
import ServerAdmin
import TextFormats
import XMPPBatch
import XMPPStorage

extension RegisterTool {
    /// `xmpp-register shared-groups FILE.csv --for prosody|ejabberd`: the batch CSV's rosters
    /// as the server's shared roster groups (a groups file, or an ejabberdctl script), on stdout.
    struct SharedGroupsCommand: ToolCommand {
        static let file = PositionalSpec("FILE", help: "The batch's CSV file, or - for standard input.", completion: .file(extensions: ["csv"]))
        static let target = Option<SharedGroups.Kind>.choice(
            "for", value: "SERVER", help: "prosody (a groups file for mod_groups) or ejabberd (an ejabberdctl script for mod_shared_roster).")
        static let domain = Option<String>("domain", value: "DOMAIN", help: "Domain for a username column and for JIDs written without @.")
        static let map = Option<String>(
            "map", value: "ATTR=COLUMN,...",
            help: "For an LDIF input (FILE ending in .ldif, or starting with dn:), which attribute fills which column, as for batch --map.")
        static let apply = Flag("apply", help: "Change the server's groups to match, through its admin interface, sending only what differs.")
        static let dryRun = Flag("dry-run", help: "With --apply: print the changes and stop.")
        static let spec = CommandSpec(
            "shared-groups", summary: "Write a batch CSV's rosters as the server's shared roster groups.",
            discussion: [
                "Reads the CSV of xmpp-register batch (the same columns and checks; passwords are not needed) and prints, "
                    + "for the server named by --for, the shared roster groups that give every account the contacts the "
                    + "groups and contacts columns ask for: the server then computes those rosters at every log-in, and the "
                    + "batch's per-account roster phase (about ten roster writes on the server per pair, which Prosody's "
                    + "file storage makes hours for a school, see DESIGN-NOTES.md) is left out with batch --shared-groups. "
                    + "Choose it for large groups that the administrator manages: a shared roster follows its groups as "
                    + "members are added, needs no subscriptions and nobody's password, but its contacts cannot be renamed "
                    + "or removed by the users, and it needs the server's configuration. Keep the per-account rosters for a "
                    + "few dozen accounts, on a server you do not configure, or when users should own their rosters.",
                "--for prosody prints a groups file for mod_groups (Prosody 0.12 and 13): '[Group]' lines, each followed "
                    + "by its members as JID=Name (the row's fullname or nickname). In mod_groups every member of a group "
                    + "sees every other member, under the group's name: each group of the CSV whose members all see each "
                    + "other becomes one, and the rows that see all of its members (and each other) join it, so teachers "
                    + "who see everyone join each class. A contact appears under every group the two share: a pupil sees "
                    + "the teachers under the class's name, and teachers see each other under Teachers and every class. "
                    + "Save it (say as /etc/prosody/school-groups.txt), add groups_file = \"/etc/prosody/school-groups.txt\" "
                    + "and \"groups\" to modules_enabled in the VirtualHost's configuration, and restart Prosody (mod_groups "
                    + "reads the file when it loads). The file has no quoting, so what mod_groups would read as something "
                    + "else is refused (exit status 9): a group name starting with '+' (a group every account of the "
                    + "host sees), a JID with '=' or a leading '[' (a line starting with '[' can start a group), and a "
                    + "control character or line separator in a name. These checks are made on bytes: a combining mark "
                    + "after '+' or '[' does not hide it.",
                "--for ejabberd prints a POSIX shell script for mod_shared_roster (enabled in ejabberd 24.12's default "
                    + "configuration; 24.12 offers no XMPP command for it): ejabberdctl srg_create for each group of the "
                    + "CSV, its label the group's name and its displayed groups those its members have contacts in, then "
                    + "srg_user_add for each member, JOBS (4) at a time through xargs -P, since each ejabberdctl call starts "
                    + "an Erlang VM. A member sees the members of the displayed groups under their labels, "
                    + "exactly as the batch's rosters file them. Group identifiers are the name's ASCII letters and digits "
                    + "and 80 bits of its SHA-256 (class-5a-8ceaba783ff72160d680), so that no name can be made to share "
                    + "another's group (and its members); names whose identifiers collide anyway are refused. Scripts "
                    + "written before this version used 32 bits (class-5a-8ceaba78): running a new script on such a "
                    + "server makes new groups beside the old, so remove the old ones first (ejabberdctl srg_list DOMAIN, "
                    + "then srg_delete GROUP DOMAIN for each). Every argument is single-quoted, each quote in it found "
                    + "by its byte, so no text of the CSV reaches the shell as code. Run it as ejabberd's administrator: sh groups.sh (EJABBERDCTL names another command, "
                    + "such as 'sudo ejabberdctl'). Running it again is harmless; a member removed from the CSV stays in "
                    + "its group until ejabberdctl srg_user_del removes it.",
                "--apply keeps the server's groups in step with FILE through the server's own admin interface, sending only "
                    + "what differs, so it can run after every change of the school's list: a new pupil is one member added, a "
                    + "move one removed and one added, a leaver one removed. The changes are printed one a line on standard "
                    + "output first (--dry-run stops there), a count on standard error after. For ejabberd it uses "
                    + "mod_http_api (--api URL, default https://DOMAIN:5443/api, on in ejabberd 24.12's packaged configuration, "
                    + "whose api_permissions allow it from the server's own machine, loopback, to an administrator: when the "
                    + "API refuses without one, the password of the account the command runs as (-a, or the active one) is "
                    + "asked for on the terminal, or read with --password-stdin or --password-file, used for this run only "
                    + "and never kept; --ca-file for a private certificate): groups are made, given their displayed groups and members, and a group that this tool "
                    + "made (its description is 'xmpp-register shared-groups') and FILE no longer has is deleted, as are the "
                    + "groups an earlier version named with 32-bit identifiers; other groups are never touched. ejabberd "
                    + "pushes each change to the members who are online: their rosters change at once. Where the API is off, "
                    + "--ejabberdctl COMMAND sends the same srg_* commands through ejabberdctl on the server's machine (e.g. "
                    + "'sudo -u ejabberd ejabberdctl'; each call an Erlang VM). For Prosody it "
                    + "rewrites --groups-file PATH (atomically; the file the VirtualHost's groups_file names, mode 0644) when "
                    + "its text changes, then reloads mod_groups through Prosody 13's admin shell (prosodyctl shell module "
                    + "reload groups DOMAIN; --prosodyctl COMMAND runs it, e.g. 'sudo -u prosody prosodyctl'): nobody is "
                    + "disconnected, and each account sees its new contacts at its next log-in, since mod_groups builds a "
                    + "roster when it is loaded (the host's cache of offline accounts' rosters, which Prosody fills to answer "
                    + "presence probes, is emptied through the same shell, or a cached roster would keep the old groups past "
                    + "that log-in). mod_groups must be loaded once by hand (\"groups\" in modules_enabled, "
                    + "groups_file, a restart); until then --apply says so. Exit status 0 when nothing was to change, 13 "
                    + "when changes were made (also with --dry-run, when there are changes to make), 6 when the admin "
                    + "interface cannot be reached, 12 when it refuses for want of rights, 1 for its other failures (the error "
                    + "says how many changes were made first).",
                "The result is checked against the CSV's pairs before anything is printed: a CSV the server's model "
                    + "cannot express exactly (a row with a contact of its own that the other members of its group lack, "
                    + "a row in no group that has contacts) is refused with the first pair that would differ, exit status "
                    + "9. All rows must be valid and on one domain. The accounts themselves are made by xmpp-register "
                    + "batch, with --shared-groups so that it sets no roster. An LDIF input is read as batch reads it "
                    + "(detected by its name or its first line; --map as for batch).",
            ],
            options: [target, Batch.format, domain, map, apply, dryRun] + SharedGroupsAccess.declarations + PasswordSource.declarations,
            positionals: [file],
            examples: [
                Example("xmpp-register shared-groups school.csv --domain school.example --for prosody > school-groups.txt",
                        "Write the groups file for Prosody's mod_groups."),
                Example("xmpp-register shared-groups school.csv --domain school.example --for ejabberd > groups.sh && sh groups.sh",
                        "Make the shared roster groups on ejabberd with ejabberdctl."),
                Example("xmpp-register batch school.csv --domain school.example --admin --generate-passwords --report pw.csv --shared-groups",
                        "Create the accounts without per-account rosters."),
            ])

        let context: AccountContext
        let input: String
        let kind: SharedGroups.Kind
        let domain: String?
        let map: String?
        let format: BatchInputFormat?
        let applyOptions: (apply: Bool, dryRun: Bool, api: String?, groupsFile: String?, prosodyctl: String, ejabberdctl: String?)

        /// The administrator's password, for an API that wants it (ejabberd's packaged
        /// api_permissions: loopback and an administrator).
        let password: PasswordSource

        init(_ invocation: Invocation) throws {
            context = invocation.passwordContext
            password = invocation.password
            input = invocation.command.argument(Self.file.name) ?? "-"
            do {
                guard let kind = try invocation.command.value(Self.target) else { throw ToolFailure(.usage, "--for SERVER is required: prosody (a groups file) or ejabberd (an ejabberdctl script)") }
                self.kind = kind
                domain = try invocation.command.value(Self.domain)
                map = try invocation.command.value(Self.map)
                format = try invocation.command.value(Batch.format)
                let access = try SharedGroupsAccess.values(invocation.command)
                applyOptions = (invocation.command[Self.apply], invocation.command[Self.dryRun], access.api, access.groupsFile,
                                access.prosodyctl ?? "prosodyctl", access.ejabberdctl)
            } catch let error as ArgumentError {
                throw ToolFailure(.usage, error.reason.description)
            }
        }

        func run() throws {
            if input == "-" { try password.refuseStandardInput(sharedWith: "the CSV") }
            var configuration = BatchConfiguration()
            configuration.domain = domain
            configuration.generatePasswords = true  // passwords play no part here
            // Read as batch reads it (avatar paths relative to the file's directory), its notes on stderr.
            let source = BatchSheetInput(path: input, environment: context.environment)
            let output = BatchOutput(program: context.environment.program, json: false, quiet: context.common.quiet, showProgress: false)
            let sheet = try source.sheet(configuration: &configuration, format: format, map: map, output: output)
            let groups: SharedGroups
            do { groups = try SharedGroups(sheet: sheet, kind: kind) } catch { throw ToolFailure(.badInput, error.description) }
            guard applyOptions.apply else {
                Output.out(kind == .prosody ? groups.prosodyFile() : groups.ejabberdScript(source: source.name))
                return
            }
            let access = SharedGroupsAccess(context: context, password: password, api: applyOptions.api, groupsFile: applyOptions.groupsFile,
                                            prosodyctl: applyOptions.prosodyctl, ejabberdctl: applyOptions.ejabberdctl,
                                            needsFile: "--apply --for prosody")
            let plan: SharedGroupsPlan
            let server: SharedGroupsPlan.Server
            switch kind {
            case .ejabberd:
                let (api, current) = try access.ejabberd(domain: groups.domain)
                (plan, server) = (SharedGroupsPlan(ejabberd: groups, current: current), .ejabberd(api))
            case .prosody:
                let file = try access.prosody()
                (plan, server) = (SharedGroupsPlan(prosody: groups, existing: file.existing, path: file.path), .prosody(file.shell))
            }
            for step in plan.steps { Output.textLine(step.description) }
            if applyOptions.dryRun || plan.isEmpty {
                if !context.common.quiet { Output.err(plan.isEmpty ? "nothing to change" : "\(plan.steps.count) changes; nothing was sent (--dry-run)") }
                if plan.isEmpty { return }
                throw StatusOnly(.changesMade)
            }
            let done = try SharedGroupsAccess.apply(plan, through: server)
            if !context.common.quiet { Output.err("\(done) change\(done == 1 ? "" : "s") made on \(groups.domain)") }
            throw StatusOnly(.changesMade)
        }
    }
}
