import Arguments

/// The section 7 page `xmpp-tools-provisioning(7)`: an operator's guide to creating the accounts of
/// a school or a company — which way in a server allows, how passwords reach people, what a
/// re-run does, rosters for groups, and which server does what.
public enum OperatorGuidePage {
    public static let name = "xmpp-tools-provisioning"

    public static func page() -> ManualPage {
        ManualPage(
            name: name, section: "7", summary: "provisioning the accounts of a school or a company with xmpp-tools",
            sections: [
                .init("DESCRIPTION", description),
                .init("CHOOSING THE WAY IN", waysIn),
                .init("PREPARING THE CSV", csv),
                .init("HANDING OUT PASSWORDS", passwords),
                .init("RUNNING IT AGAIN", rerun),
                .init("ROSTERS FOR GROUPS", rosters),
                .init("KEEPING A SCHOOL IN STEP", sync),
                .init("A SCHOOL YEAR WITH SYNC", syncYear),
                .init("SERVERS", servers),
                .init("EXAMPLES", examples),
                .init("SEE ALSO", [.references(["xmpp-register(1)", "xmpp-login(1)", "xmpp-roster(1)", "xmpp-adhoc(1)",
                                                 "xmpp-tools(7)", "prosodyctl(1)", "ejabberdctl(8)"])]),
            ])
    }

    private static let description: [ManualPage.Block] = [
        .paragraph(
            "This page is for the person who creates the accounts: a teacher with a class list, an "
                + "administrator with a staff export. It says which of the three ways in a server allows, how to "
                + "prepare the list, how the passwords or invitations reach the people, what running the same "
                + "list again does, and what each server in common use does differently. The commands are "
                + "xmpp-register batch for the accounts and xmpp-roster for their contacts; xmpp-register(1) has "
                + "every option."),
    ]

    private static let waysIn: [ManualPage.Block] = [
        .definitions(
            [
                Definition(
                    "In-band registration (XEP-0077)",
                    "xmpp-register batch FILE. Anyone can create an account, so production servers rarely allow "
                        + "it: Prosody's default is allow_registration = false, Debian's ejabberd.yml does not load "
                        + "mod_register (and where it is loaded, ejabberd allows one account per address every 600 "
                        + "seconds, registration_timeout), Prosody 13 with mod_invites_register allows it only by "
                        + "invitation. A closed server stops the batch at its first answer with "
                        + "exit status 10, a throttling one is waited for with back-off and ends with status 11 if "
                        + "it makes no progress; either way --resume continues later. Needs no account of your own."),
                Definition(
                    "Administration commands (XEP-0133)",
                    "xmpp-register batch FILE --admin, logged in with xmpp-login as an administrator of the server. "
                        + "Works where registration is closed, which is the usual case; each stream carries several "
                        + "add-user commands at once, so it is as fast as registration. Prosody needs mod_admin_adhoc "
                        + "and the account in admins; ejabberd needs mod_adhoc and mod_configure and the account "
                        + "allowed by the configure access rule. An account without the right is exit status 12 "
                        + "before any row is sent. --delete and --passwd then need no passwords of the accounts."),
                Definition(
                    "Invitations (XEP-0401)",
                    "xmpp-register batch FILE --invite --report FILE, as an administrator of a Prosody with "
                        + "mod_invites, mod_invites_adhoc and mod_invites_register. No password is made or seen by "
                        + "anyone but the person: each row gets an xmpp: invitation URI (and the server's landing "
                        + "page with mod_invites_page) to send them; they choose their password when they redeem it "
                        + "in their client, or with xmpp-register JID --invite URI. The best choice where people have "
                        + "a client that opens such links. For one person at a time, xmpp-register invite makes one "
                        + "and shows it as a QR code on the terminal, for them to scan off the screen."),
            ], style: .plain),
        .paragraph(
            "xmpp-register form DOMAIN shows what the server asks for before it creates an account, and "
                + "xmpp-adhoc list, logged in as the administrator, which commands it offers."),
    ]

    private static let csv: [ManualPage.Block] = [
        .paragraph(
            "The first line names the columns: jid (or username with --domain), password (or "
                + "--generate-passwords), and optional profile columns such as nickname, fullname, email and "
                + "avatar. Comma, semicolon (as European spreadsheets save) and tab separators are recognised "
                + "from that line, as is Excel's sep= line; files are UTF-8 (UTF-16 from a spreadsheet's "
                + "\"Unicode Text\", with its byte-order mark, is read too). Check the list before anything is sent:"),
        .literal(["xmpp-register batch class.csv --domain school.example --dry-run --json |",
                  "  jq -r 'select(.status==\"invalid\") | \"\\(.line) \\(.error)\"'"]),
        .paragraph(
            "--dry-run reports every row as valid or invalid with its line number and the reason; --strict "
                + "refuses the whole file when any row is invalid, for lists that must go in completely or not at all. "
                + "User names are read as RFC 7622 says (PRECIS): lowercased, fullwidth letters made plain, and "
                + "a name holding symbols or compatibility characters (a Roman numeral, a circled letter) "
                + "refused with its line rather than rewritten; two rows that are the same account are reported."),
    ]

    private static let passwords: [ManualPage.Block] = [
        .paragraph(
            "With --generate-passwords every new account gets a random password, written only into the "
                + "--report file (CSV, mode 0600): not to the terminal, not to the JSON rows, not to any log. "
                + "Hand them out from that file (it carries each row's name and groups when the CSV has them), "
                + "or from one file per class with --report-by-group DIR, then keep them or "
                + "destroy them as your policy says. While a run is unfinished its journal (REPORT.journal) holds the only copy of the "
                + "passwords made so far: finish the run with --resume rather than deleting it."),
        .paragraph(
            "Printed slips, one per person to cut apart, come from xmpp-register handout: a PDF (mode 0600, "
                + "A4 or --paper letter) with each group of the CSV starting a page under its heading, and on "
                + "each slip the name, the address, the server, a short sign-in text (--sign-in replaces it) and "
                + "the password in a font where O and 0, l, 1 and I differ, or the invite as a QR code that "
                + "Conversations, Monal and Siskin open. The report records when each slip was printed "
                + "(handed_out), later runs keep that, and the next handout prints only what is new:"),
        .literal(["xmpp-register sync school.csv --domain school.example --admin --report pw.csv",
                  "xmpp-register handout pw.csv -o slips.pdf && lp slips.pdf",
                  "# weeks later, new pupils in school.csv:",
                  "xmpp-register sync school.csv --domain school.example --admin --report pw.csv",
                  "xmpp-register handout pw.csv -o new.pdf         # their slips only",
                  "xmpp-register handout pw.csv --group 'Class 5A' --all -o 5a.pdf"]),
        .paragraph(
            "sync's report also dates each account it created (the created column, kept by later syncs while the "
                + "account keeps its first password), so a spreadsheet sorted by it finds this week's new accounts "
                + "however often sync ran since; --report-by-group DIR splits it per class as batch does. On Prosody 13, sync --invite "
                + "hands the new accounts out as invites instead of passwords: each slip's QR code opens in "
                + "Conversations, Monal or Siskin and lets the pupil choose a password nobody else has seen (sync keeps "
                + "its own password for the account until then, to set the profile and roster). The invites are valid "
                + "for 24 hours, so print them the day they are made; a server without them (ejabberd, Prosody 0.12) "
                + "refuses --invite before anything is sent:"),
        .literal(["xmpp-register sync school.csv --domain school.example --admin --report pw.csv --invite --report-by-group classes",
                  "xmpp-register handout pw.csv -o new.pdf && lp new.pdf"]),
        .paragraph(
            "Passwords in the CSV are used as given. Asking people to change theirs at first login is up to "
                + "their client; an administrator can reset one with xmpp-register batch --admin --passwd (a "
                + "new_password column, or --generate-passwords), or one account with xmpp-register passwd "
                + "--admin JID --report REPORT, which also puts the new password into the batch's report, so the "
                + "batch's next run (a new classmate, say) can still log in as that account to set its roster."),
        .paragraph(
            "Invitations (--invite) are credentials too: they are written to the report only, and each is "
                + "valid until the time its note gives."),
    ]

    private static let rerun: [ManualPage.Block] = [
        .paragraph(
            "A batch can be run again with the same CSV and the same --report as often as needed, and it "
                + "never loses a password:"),
        .definitions(
            [
                Definition("Rows already created", "are reported 'exists' and keep the password the report holds; "
                               + "nothing is sent for them but the check."),
                Definition("New rows", "are created, and only they get new passwords."),
                Definition("--on-exists update", "logs in to existing accounts with their password (from the CSV or "
                               + "the report) and sets their profile columns again: the way to fix nicknames or "
                               + "avatars for everyone."),
                Definition("--on-exists fail", "counts an existing account as a failure (exit status 1), for lists "
                               + "that must all be new."),
                Definition("An interrupted run", "(Ctrl-C, kill -9, a reboot) is continued with --resume: no row is "
                               + "created twice and none is skipped; a request whose answer was lost is checked by "
                               + "logging in."),
                Definition("A row removed", "(a leaver, or another list given the same --report) loses no "
                               + "password: the new report keeps the passwords of the accounts the list no longer "
                               + "names, after its rows, with status kept. Still, give each list its own --report."),
            ], style: .plain),
        .paragraph(
            "--delete is idempotent as rm -f is: an account deleted before is reported 'deleted' with the "
                + "note 'no such account'. Several machines can split one list with --shard K/N, each with its "
                + "own report (each lists its own shard's rows only); their header and rows together, sorted by "
                + "line, give the whole: { head -n 1 r1.csv; tail -q -n +2 r1.csv r2.csv | sort -t, -k1,1n; } > all.csv "
                + "(xmpp-register(1) says when sort may not be used). Shards run at once against different nodes of one cluster create "
                + "every row exactly once."),
    ]

    private static let rosters: [ManualPage.Block] = [
        .paragraph(
            "Two ways give a group of people each other as contacts. Per-account rosters are ordinary contacts "
                + "with subscriptions both ways, made by the batch itself from two optional columns (groups, the "
                + "groups a row belongs to; contacts, JIDs or group names whose members the row gets, every pair "
                + "mutual and approved on both sides), or later with xmpp-roster (add several JIDs at once, import "
                + "a list with --group): every client shows them, people can rename or remove them, and they stay when "
                + "the group changes. Shared rosters are a server feature (Prosody's mod_groups reading a groups "
                + "file, ejabberd's mod_shared_roster with groups managed by ejabberdctl or its web admin): the "
                + "server adds the members to every member's roster itself, nobody can remove them, and a change "
                + "of the group reaches everyone at once. Choose shared rosters for an organisation's fixed "
                + "structure that the server's administrator keeps, and per-account rosters where the teacher "
                + "or the people themselves own the contacts."),
    ]

    private static let sync: [ManualPage.Block] = [
        .paragraph(
            "Provisioning is not done once: pupils join and leave, names and photos change, classes are "
                + "rearranged every year. xmpp-register sync FILE --admin --report REPORT takes the file as the whole "
                + "managed set and works out the difference, as terraform plan does: it first reads the server (the "
                + "refresh: which managed accounts exist, and, logging in as each with the report's password, whether "
                + "it is enabled and what its roster holds), then compares; with --dry-run it prints the plan (--json "
                + "for scripts) and sends nothing; without, it prints the plan and applies it. Keep one file (exported "
                + "from the school's system every time) and one report, and run the same command each time; when "
                + "neither the file nor the server changed it says 'Nothing to change' (exit status 0; 13 means changes "
                + "were made, or with --dry-run that there are some, 1 that some failed and will be planned again, 14 "
                + "that the removal limit stopped it). --no-refresh plans from sync's memory alone, without a "
                + "connection."),
        .definitions(
            [
                Definition("Managed", "the accounts sync created or adopted (--adopt), and of them: the profile "
                               + "fields of the columns the file has (nickname, fullname, email: a new value replaces "
                               + "the old, an emptied cell clears the field), the avatar, the roster items the groups "
                               + "and contacts columns make, and whether the account exists and is enabled. Sync "
                               + "remembers what it applied last ($XDG_STATE_HOME/xmpp-tools/sync/DOMAIN.json, no "
                               + "passwords) and, after the refresh, sends only what the file changed or the server "
                               + "lost."),
                Definition("Drift", "what changed on the server behind sync's back, each on its own 'drift' line "
                               + "of the plan with what sync does about it: an account deleted (prosodyctl, "
                               + "ejabberdctl) is created again with a new password; one disabled by hand is enabled; a "
                               + "managed contact its user removed is added again, both ways; a nickname or photo a "
                               + "pupil changed in their client is set to the file's again. A pupil who changed their "
                               + "password cannot be read: the plan lists them as 'unverified', which is not drift. "
                               + "For cron: xmpp-register sync … --dry-run -q exits 13 while there is anything to do."),
                Definition("Never touched", "an account sync did not create and was not told to adopt: the "
                               + "administrator's own, one made by batch, by hand or by another tool. A row naming one "
                               + "is planned as 'skip' (naming --adopt) and left alone. Nor: other roster items the "
                               + "users added themselves, their passwords (reset them with xmpp-register passwd "
                               + "--admin), their messages and other data, a column the file does not have (leave a "
                               + "column out to leave that field to the users; an empty avatar cell leaves the photo to "
                               + "them)."),
                Definition("Leavers", "accounts sync created that are no longer in the file. They come first in the "
                               + "plan, and every managed roster drops them. They are disabled where the server offers "
                               + "XEP-0133 disable-user (Prosody 13): their data stays, and a pupil who returns is "
                               + "enabled again with the old password. Prosody 0.12 and ejabberd offer no disable-user: "
                               + "the plan keeps them and says so; --prune delete deletes them (on every server). "
                               + "More than --max-removals leavers (10% of the managed accounts, at least 5) stop the "
                               + "run until --yes: a half-exported file must not wipe a school, while one class leaving "
                               + "usually passes; a group whose every member leaves is named in the plan ('group' "
                               + "lines), so a class leaving at once is seen as one."),
                Definition("Deleted elsewhere", "an account deleted with xmpp-register delete --admin that the "
                               + "file still lists is planned as created again, with a new password, and the plan says "
                               + "so; it never comes back silently with its old password."),
            ], style: .plain),
    ]

    private static let syncYear: [ManualPage.Block] = [
        .paragraph("The school exports school.csv (username, fullname, groups, contacts, avatar): each pupil's row "
                       + "has groups=Class 5A and contacts=Class 5A;Teachers, each teacher groups=Teachers and "
                       + "contacts=Teachers, so pupils see their class and the teachers, and teachers see everyone."),
        .paragraph("September, the first year: all accounts, profiles, photos and rosters; the passwords go to "
                       + "school-pw.csv (mode 0600) for the slips. A school made earlier with xmpp-register batch "
                       + "--report school-pw.csv is planned as 'skip' lines naming --adopt: run the same sync with "
                       + "--adopt once, and the accounts go under sync with nothing created again and no password "
                       + "changed (accounts made by hand, with no password in the report, are adopted for enabling, "
                       + "disabling and deleting only):"),
        .literal(["xmpp-login admin@school.example",
                  "xmpp-register sync school.csv --domain school.example --admin --report school-pw.csv --dry-run",
                  "xmpp-register sync school.csv --domain school.example --admin --report school-pw.csv"]),
        .literal(["xmpp-register sync school.csv --domain school.example --admin --report school-pw.csv --adopt --dry-run"]),
        .paragraph("During the year, a nightly cron job watches for drift and mails the plan when there is one:"),
        .literal(["xmpp-register sync school.csv --domain school.example --admin --report school-pw.csv --dry-run > plan.txt",
                  "[ $? = 13 ] && mail -s 'xmpp: sync plan' admin@school.example < plan.txt"]),
        .paragraph("A pupil moves from 5A to 5B (her row's groups and contacts change): the plan shows her roster "
                       + "losing 5A and gaining 5B, 5A's rosters losing her and 5B's gaining her, and the teachers "
                       + "filing her under 5B; nobody else is logged in to. A teacher marries and changes her name: one "
                       + "profile field of one account, and her name in every roster that holds her. The same command "
                       + "each time."),
        .paragraph("A lost photo: the file no longer has the pupil's image. An emptied avatar cell changes nothing, so "
                       + "the photo on the server stays; when a new photo is taken, its file in the avatar column is a "
                       + "new image and replaces the old one (sync compares the image files' SHA-256). An e-mail "
                       + "removed in the school's system (an emptied email cell) is removed from the account; a "
                       + "changed one replaces the old address."),
        .paragraph("Pupils leave in July: their rows are gone from the export. On Prosody 13 the plan starts with "
                       + "'disable' lines; on ejabberd it says the server offers no disable-user, and the leavers are "
                       + "deleted with --prune delete once you are sure:"),
        .literal(["xmpp-register sync school.csv --domain school.example --admin --report school-pw.csv --dry-run --json |",
                  "  jq -r '.leavers[] | .action + \" \" + .jid'",
                  "xmpp-register sync school.csv --domain school.example --admin --report school-pw.csv --prune delete"]),
        .paragraph("Where the school keeps its people in a directory, the directory is the file: "
                       + "ldapsearch -LLL … | xmpp-register sync - --format ldif --map uid=username,cn=fullname,"
                       + "jpegPhoto=avatar,ou=groups --domain school.example --admin --report school-pw.csv, from a cron job; the photos come "
                       + "from jpegPhoto, and a photo changed in the directory is a new image. Groups alone make no "
                       + "rosters (sync warns): the entries also need an attribute mapped to contacts, holding "
                       + "each pupil's class and Teachers."),
        .paragraph("A new school year: the export has next year's classes and the new pupils. The plan creates "
                       + "the newcomers (their passwords join school-pw.csv, the others keep theirs), moves every pupil "
                       + "whose class changed, and retires the leavers: the plan names a class whose every pupil leaves "
                       + "('group' lines); a class of the usual size passes the removal limit, more leavers than that "
                       + "need a look at the plan and --yes."),
    ]

    private static let servers: [ManualPage.Block] = [
        .definitions(
            [
                Definition("Prosody 0.12", "Registration closed by default; admin commands with mod_admin_adhoc. Stores "
                               + "SCRAM hashes, so cached sessions work. Keeps vcard-temp as vCard4, so some fields "
                               + "(organisational units, for one) are dropped: the tools warn, naming them."),
                Definition("Prosody 13", "Closed by default; by invitation with mod_invites_register. Admin commands "
                               + "with mod_admin_adhoc, invitations with mod_invites and mod_invites_adhoc, SASL2 and "
                               + "FAST with prosody-modules."),
                Definition("ejabberd 23.01 and 24.12", "Debian's ejabberd.yml does not load mod_register; where it is "
                               + "loaded, one account per address every 600 s. Admin commands with mod_adhoc and "
                               + "mod_configure. Stores plain passwords by default, so log in with --password-command. "
                               + "24.12 has SASL2, Bind2 and FAST built in."),
                Definition("jabberd2 2.7", "Registration open in Debian's configuration; no admin commands; no PEP (avatars "
                               + "go into the vCard only, and the tools say so); plain passwords; answers only some of "
                               + "several pipelined registrations, which the batch notices, then sending one at a time."),
                Definition("Openfire", "In-band registration on by default and XEP-0133 built in, by its documentation; "
                               + "not tested by this project."),
            ], style: .plain),
        .paragraph(
            "The first five are tested by this project against the versions above, each also in its default "
                + "configuration. A server's own command line is the other way: prosodyctl adduser and "
                + "ejabberdctl register create one account per call (ejabberdctl starts an Erlang node for each, "
                + "about 2 accounts a second); the batch is tens to hundreds of times faster and keeps a report."),
    ]

    private static let examples: [ManualPage.Block] = [
        .paragraph("A class of 30 on a server with closed registration, as its administrator:"),
        .literal(["xmpp-login admin@school.example",
                  "xmpp-register batch class.csv --domain school.example --admin --generate-passwords --report class-report.csv"]),
        .paragraph("The same class by invitation, and the invitations mailed out:"),
        .literal(["xmpp-register batch class.csv --domain school.example --invite --report invites.csv",
                  "tail -n +2 invites.csv | cut -d, -f2,6  # jid and invite URI (the header names the columns)"]),
        .paragraph("Ten more pupils later: add them to class.csv and run the first command again; the 30 keep their passwords."),
        .paragraph("Teachers who all have each other as contacts, in a group Teachers (a row per teacher):"),
        .literal(["printf 'username,fullname,groups,contacts\\nann,Ann Smith,Teachers,Teachers\\nbob,Bob Jones,Teachers,Teachers\\n' >teachers.csv",
                  "xmpp-register batch teachers.csv --domain school.example --admin --generate-passwords --report teachers-report.csv"]),
        .paragraph("The batch logs in as each account to make its roster, so every pair costs the server about ten "
                       + "roster writes, and the server's storage sets the pace, growing with the rosters' size: at their "
                       + "default configurations a school of 320 (12 classes of 25, 20 teachers who see everyone) took "
                       + "about 9 minutes on ejabberd 24.12 and longer on Prosody 13, whose file storage rewrites a "
                       + "whole roster for each write, on a shared two-core machine; a client sending only the necessary "
                       + "stanzas takes as long. Other accounts can log in meanwhile. Running the batch again changes only "
                       + "the rosters that change: one more pupil touches its class and the teachers, a few seconds. For "
                       + "a whole school's fixed groups a shared roster is the better tool."),
        .paragraph("The same CSV gives the shared rosters: xmpp-register shared-groups writes Prosody's groups file "
                       + "(--for prosody: load mod_groups with groups_file and restart) or a script of ejabberdctl "
                       + "commands (--for ejabberd: mod_shared_roster, which Debian's ejabberd.yml loads), and "
                       + "xmpp-register batch --shared-groups makes the accounts without per-account rosters. A CSV "
                       + "whose rosters the server's groups cannot express exactly (a pupil with a contact the class "
                       + "lacks) is refused, naming the pair."),
        .literal(["xmpp-register batch school.csv --domain school.example --admin --generate-passwords --report pw.csv --shared-groups",
                  "xmpp-register shared-groups school.csv --domain school.example --for prosody >/etc/prosody/school-groups.txt"]),
        .paragraph("Through the year the groups follow the list with --apply, which changes the server's groups through "
                       + "its own admin interface and sends only what differs: each time the school's export changes, "
                       + "batch --shared-groups makes the new pupils' accounts and shared-groups --apply moves the "
                       + "members (a new pupil is one member added, a move one removed and one added, a leaver one "
                       + "removed). On ejabberd it uses mod_http_api (on by default on port 5443; run it on the server "
                       + "itself, which the packaged api_permissions allow from loopback), and online members see the "
                       + "change at once. On Prosody 13 it rewrites the groups file and reloads mod_groups through "
                       + "the admin shell: nobody is disconnected, and each account sees the change at its next "
                       + "log-in. --dry-run shows the changes first."),
        .literal(["xmpp-register batch school.csv --domain school.example --admin --generate-passwords --report pw.csv --shared-groups",
                  "xmpp-register shared-groups school.csv --domain school.example --for ejabberd --apply --dry-run",
                  "xmpp-register shared-groups school.csv --domain school.example --for ejabberd --apply",
                  "sudo xmpp-register shared-groups school.csv --domain school.example --for prosody --apply \\",
                  "    --groups-file /etc/prosody/school-groups.txt --prosodyctl 'prosodyctl'"]),
        .paragraph("Or let sync keep the whole school year, accounts and groups together, from the one export: "
                       + "sync --rosters shared creates, disables and deletes the accounts as always but gives them no "
                       + "roster items; the groups column becomes the server's shared groups, and each run plans and sends "
                       + "only the membership changes, on 'shared' lines of the plan. In September the first sync makes "
                       + "the school and its groups; a pupil who joins in October is one account created and one member "
                       + "added; a pupil who changes class is removed from one group and added to the other; a leaver is "
                       + "disabled (Prosody 13) or kept until --prune delete (ejabberd) and removed from its class. On "
                       + "ejabberd the classes see the change at once (the API asks for the administrator's password when "
                       + "its api_permissions want one; --ejabberdctl where the API is off); on Prosody at each account's "
                       + "next log-in, nobody disconnected. In June a class that leaves is a group deleted with its "
                       + "accounts, past the removal limit with --yes."),
        .literal(["xmpp-register sync school.csv --domain school.example --admin --report pw.csv --rosters shared --for ejabberd --dry-run",
                  "xmpp-register sync school.csv --domain school.example --admin --report pw.csv --rosters shared --for ejabberd",
                  "sudo xmpp-register sync school.csv --domain school.example --admin --report pw.csv --rosters shared --for prosody \\",
                  "    --groups-file /etc/prosody/school-groups.txt"]),
    ]
}
