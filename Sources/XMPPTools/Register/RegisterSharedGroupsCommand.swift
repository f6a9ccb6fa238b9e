import Arguments
import TextFormats
import XMPPBatch

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
                "The result is checked against the CSV's pairs before anything is printed: a CSV the server's model "
                    + "cannot express exactly (a row with a contact of its own that the other members of its group lack, "
                    + "a row in no group that has contacts) is refused with the first pair that would differ, exit status "
                    + "9. All rows must be valid and on one domain. The accounts themselves are made by xmpp-register "
                    + "batch, with --shared-groups so that it sets no roster. An LDIF input is read as batch reads it "
                    + "(detected by its name or its first line; --map as for batch).",
            ],
            options: [target, Batch.format, domain, map],
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

        init(_ invocation: Invocation) throws {
            context = invocation.context
            input = invocation.command.argument(Self.file.name) ?? "-"
            do {
                guard let kind = try invocation.command.value(Self.target) else { throw ToolFailure(.usage, "--for SERVER is required: prosody (a groups file) or ejabberd (an ejabberdctl script)") }
                self.kind = kind
                domain = try invocation.command.value(Self.domain)
                map = try invocation.command.value(Self.map)
                format = try invocation.command.value(Batch.format)
            } catch let error as ArgumentError {
                throw ToolFailure(.usage, error.reason.description)
            }
        }

        func run() throws {
            var configuration = BatchConfiguration()
            configuration.domain = domain
            configuration.generatePasswords = true  // passwords play no part here
            // Read as batch reads it (avatar paths relative to the file's directory), its notes on stderr.
            let source = BatchSheetInput(path: input, environment: context.environment)
            let output = BatchOutput(program: context.environment.program, json: false, quiet: context.common.quiet, showProgress: false)
            let sheet = try source.sheet(configuration: &configuration, format: format, map: map, output: output)
            let groups: SharedGroups
            do { groups = try SharedGroups(sheet: sheet, kind: kind) } catch { throw ToolFailure(.badInput, error.description) }
            Output.out(kind == .prosody ? groups.prosodyFile() : groups.ejabberdScript(source: source.name))
        }
    }
}
