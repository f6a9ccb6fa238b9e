import Arguments
import TextFormats
import XMPPBatch

extension RegisterTool {
    /// `xmpp-register batch FILE.csv|-`: accounts by the thousand from a CSV file.
    struct Batch: ToolCommand {
        static let file = PositionalSpec("FILE", help: "The CSV or LDIF file, or - for standard input.", completion: .file(extensions: ["csv", "ldif"]))
        static let format = Option<BatchInputFormat>.choice(
            "format", value: "FORMAT",
            help: "The input's format: csv or ldif (default: ldif when FILE ends in .ldif or its first line, comments aside, "
                + "starts with dn: or version:; else csv).")
        static let map = Option<String>(
            "map", value: "ATTR=COLUMN,...",
            help: "Which LDIF attribute fills which column: without it, inetOrgPerson's "
                + DirectoryMap.inetOrgPerson.split(separator: ",").joined(separator: ", ") + ".")
        static let jobs = Option<Int>.integer(
            "jobs", value: "N",
            help: "Streams at once (default 4): registration streams each pipeline several requests (one at a time once a server answers a later request first, as jabberd2 does, which drops the answers to the others; the skipped rows are sent again and confirmed by logging in); log-ins (profiles, update, --delete, --passwd) run one account per stream.",
            in: 1...256)
        static let window = hiddenInteger("window", value: "N", help: "Registrations in flight per stream (default 4).", in: 1...64)
        static let maxStreamAge = hiddenInteger(
            "max-stream-age", value: "SECONDS", help: "Replace each registration stream after this long (default 240).", in: 1...86_400)
        static let resume = Flag("resume", help: "Continue the interrupted run of this CSV recorded in its journal.")
        static let dryRun = Flag("dry-run", help: "Check every row and stop; nothing is sent.")
        static let strict = Flag("strict", help: "Refuse the whole file when any row is invalid.")
        static let onExists = Option<ExistsPolicy>.choice(
            "on-exists", value: "POLICY", help: "When an account exists: skip (default), fail, or update (log in, apply the profile).")
        static let report = Option<String>(
            "report", value: "FILE", help: "Write every row's outcome to FILE as CSV (mode 0600, atomic).", completion: .file(extensions: ["csv"]))
        static let reportByGroup = Option<String>(
            "report-by-group", value: "DIR",
            help: "Also write the report split by the groups column: DIR/group-NAME.csv per group, DIR/ungrouped.csv (mode 0600; DIR made 0700).",
            completion: .directory)
        static let domain = Option<String>("domain", value: "DOMAIN", help: "Domain for a username column and for JIDs written without @.")
        static let shard = Option<String>(
            "shard", value: "K/N", help: "Take only shard K of N (by a hash of the JID), so N machines split one CSV.")
        static let generatePasswords = Flag(
            "generate-passwords", help: "Generate passwords for rows without one, as each is created (kept only in --report). "
                + "Each is 24 letters and digits without the look-alikes O, 0, l, I and 1, so a printed slip reads back.")
        static let delete = Flag("delete", help: "Delete the listed accounts instead (logs in with each row's password).")
        static let passwd = Flag("passwd", help: "Change each account's password from password to new_password.")
        static let invite = Flag(
            "invite", help: "Create one account invite (XEP-0401) per row as the administrator, and write its URI to --report instead of a password.")
        static let sharedGroups = Flag(
            "shared-groups", help: "Set no per-account rosters: the server's shared roster groups give them (xmpp-register shared-groups).")
        static let admin = Flag(
            "admin", help: "Use the logged-in administrator's XEP-0133 commands (add, delete, change password), where registration is closed.")

        static let spec = CommandSpec(
            "batch", summary: "Create, delete or re-password many accounts listed in a CSV or LDIF file.",
            discussion: [
                "FILE is RFC 4180 CSV (UTF-8, optional BOM, CRLF or LF; quoted fields may hold commas, quotes and line breaks) "
                    + "with a header row naming its columns in any order: jid (or username with --domain), password (or "
                    + "--generate-passwords), and optionally nickname, fullname, email and avatar (an image path, relative to the "
                    + "CSV's directory), groups and contacts (rosters, below). --passwd needs new_password. Header names are compared by their letters and digits alone, case "
                    + "ignored, and the spellings spreadsheets use count too: Full name, Name or Display name (fullname), "
                    + "E-mail or Mail (email), Class, Classes or Group (groups), User, Login or UID (username), Nick "
                    + "(nickname), Photo, Picture or Image (avatar), Contact (contacts), New password (new_password). "
                    + "Unknown columns are ignored with a warning that names the column a near miss probably meant.",
                "Spreadsheets' files are read as they are: fields separated by commas, semicolons (as Excel writes them where "
                    + "the decimal mark is a comma) or tabs — the delimiter the header line uses most, or the one an Excel "
                    + "sep=; first line names — and UTF-16 with a byte-order mark (Excel's Unicode Text) as well as UTF-8. A row "
                    + "whose fields are all empty (what a spreadsheet exports for a cleared row) is skipped; a row "
                    + "with fewer fields than the header is invalid, its line named. The jid and username fields are trimmed of "
                    + "spaces and tabs, which RFC 4180 keeps but a JID cannot hold. The report, like every CSV the tools write, "
                    + "ends its lines with CRLF (RFC 4180, as spreadsheets expect).",
                "A directory's people (--format ldif, or without --format a FILE named *.ldif or an input whose first line, "
                    + "comments aside, starts with dn: or version:) are read as ldapsearch -LLL or slapcat writes them (RFC 2849: "
                    + "folded lines, base-64 :: values, # comments, version: 1, LF or CRLF), each entry a row on the line of its dn:. "
                    + "An input with no records (an empty CSV or one with a header alone, an LDIF without entries: ldapsearch "
                    + "against a server that is down prints nothing) is refused with exit status 9, and so is an LDIF that "
                    + "ends inside a line or without the blank line after its last entry, which both tools always write: "
                    + "an export cut short would otherwise pass for a smaller directory (a file written by hand: end it "
                    + "with a blank line). A map that fills password or new_password from an attribute is warned about "
                    + "on standard error at every run: many directories let their users edit some of their own attributes "
                    + "(description, displayName, often mail), and whoever can edit it chooses the account's password; "
                    + "with --generate-passwords such a map is refused (exit status 9). "
                    + "--map ATTR=COLUMN,... says which attribute fills which column, a column being any name the CSV header "
                    + "takes; without it: \(DirectoryMap.inetOrgPerson.split(separator: ",").joined(separator: ", ")) (inetOrgPerson, RFC 2798; uid is a user name, so "
                    + "--domain is needed). Several attributes may fill one column, the first an entry has giving its values "
                    + "(displayName, else cn). A column takes the attribute's first value, but groups and contacts take every "
                    + "value (ou: Class 5A and ou: Choir are two groups; a ';' inside a value stays part of it). Attribute names "
                    + "compare ignoring case; cn;lang-de takes the values with that option, and cn the values without options, "
                    + "else those with any (jpegPhoto;binary). Attributes the map does not name are ignored; a mapped one an "
                    + "entry lacks leaves its column empty (a note on standard error names a column no entry fills: a "
                    + "misspelt attribute), and an entry without the user name (a container such as ou=People) "
                    + "is an invalid row: give ldapsearch a filter such as '(objectClass=inetOrgPerson)'. jpegPhoto is taken as "
                    + "the image it is, kept in memory and never written to a file; an avatar column may likewise hold a "
                    + "base-64 data: URI (quoted in a CSV, where its comma would end the field, and at most 64 KiB there). Values by URL (attr:< file:...) "
                    + "and change records (changetype:) are refused, naming the line. Passwords are not read from a directory, "
                    + "whose userPassword holds hashes: map another attribute to password, or use --generate-passwords with "
                    + "--report, or --invite. The map is part of the batch's identity: the same LDIF read through another map "
                    + "is another batch to the journal and --resume.",
                "Every row is checked before anything is sent: JID syntax, duplicates, missing passwords, unreadable avatars. "
                    + "Bad rows are reported with their line numbers and skipped; --strict refuses the whole file instead, "
                    + "and --dry-run stops after the check. A dry run reads the input a block at a time and prints each row "
                    + "as it is checked, keeping some 25 bytes per account of its shard (for duplicates): a million rows "
                    + "take under 64 MB, and rows of other shards nothing. So a CSV error further down (a quote that never "
                    + "closes) is reported after the rows before it. An LDIF, a CSV with a contacts column (a row's contacts "
                    + "may name any later row) and --strict are read whole before the first row is printed.",
                "Registrations run on --jobs unauthenticated TLS streams at once, each reused for many accounts with several "
                    + "requests in flight, all driven by one event loop with one TLS context. Throttling (resource-constraint, "
                    + "policy-violation) and dropped connections back off and retry; no row is dropped.",
                "Several endpoints: with --server given more than once, the --jobs streams take turns over the servers "
                    + "in the order given (with --jobs 4 and two servers, two streams each); without --server, over the "
                    + "domain's SRV targets of the best priority, in proportion to their weights (RFC 2782), the other "
                    + "priorities serving as failover only. This applies alike to registration, --admin streams and the log-ins "
                    + "for profiles, --delete and --passwd (those take the endpoints in turn, one log-in at a time). An "
                    + "endpoint that refuses a connection, does not connect within 3 s while others are left, or drops a "
                    + "stream backs off (1 s, doubling up to 30 s, with jitter; its other streams dropping with it count "
                    + "once) and its streams reconnect to the next healthy endpoint, the one that failed being tried last "
                    + "until its back-off ends. Rows that were in flight on a dropped stream are sent again on another "
                    + "endpoint, marked uncertain and with the same password: an account the dead endpoint had created is "
                    + "answered conflict there and checked by logging in with that password, so it is reported created, "
                    + "never twice, and a generated password never changes once sent. With --admin such a row (and a row an "
                    + "earlier run left sent) is logged into first and its add-user sent again only when the password does "
                    + "not log in: ejabberd (23.01 and 24.12) keeps a refused add-user in its authentication cache and closes "
                    + "every stream that logs in to that account until the cache expires (auth_cache_life_time, an hour by "
                    + "default). A note on standard error names each "
                    + "endpoint that failed. When every endpoint is down the batch fails as it does with one server. The "
                    + "endpoints must serve the same accounts (one server, or the nodes of one cluster).",
                "Each outcome is recorded in a journal (SQLite, mode 0600, every commit synced to disk) as it happens: next "
                    + "to the report (REPORT.journal), or under $XDG_STATE_HOME/xmpp-tools/batch/. After a crash, Ctrl-C or kill -9, "
                    + "--resume continues without registering any row twice or skipping one (and tries again the rows whose failure "
                    + "was transient); a request that was sent but never answered is checked by logging in with the row's password. "
                    + "Without --resume, an unfinished journal is refused rather than overwritten, and the refusal names what makes "
                    + "this run another batch (an option such as --admin, --generate-passwords, --domain or --shard, or the "
                    + "CSV's content). A journal whose run the server did nothing for (every row still to do, failed or "
                    + "invalid, none sent without an answer, no password kept) is replaced instead, by any batch, with a note "
                    + "saying what differed: a run a server closed to it stopped at its first answer holds nothing worth "
                    + "keeping. A run of the same CSV with the same options but for --admin (in-band registration stopped by a "
                    + "server closed to it after some accounts were made, say) is continued by --resume with or without "
                    + "--admin: a row the other left sent is checked by logging in first. A resumed run prints the rows "
                    + "it finishes; the report always lists every row.",
                "--generate-passwords makes a row's password only when its registration is about to be sent, and the journal "
                    + "records it before the request leaves. An account that turns out to exist keeps its own password: its row "
                    + "shows none. Until a run has finished, the journal holds the only copy of the passwords made so far (the "
                    + "message about an unfinished journal says so: finish it with --resume, do not remove it). Once a finished "
                    + "run's report is on disk, the passwords are wiped from the journal and live only in the report.",
                "Running a batch again with the same --report merges: the passwords that report holds are carried over, so "
                    + "the rows created earlier keep theirs (an existing account is reported 'exists' with its password, and "
                    + "--on-exists update logs in with it), and only new rows get new ones. A row whose account was deleted since that report (xmpp-register "
                    + "delete --admin) is created again with the password the report kept, and its note says so "
                    + "(xmpp-register sync knows deletions and makes a new password). The passwords that report holds of "
                    + "accounts this batch does not list (a row removed since, another CSV or shard) are kept: the new report "
                    + "lists them after the CSV's rows, with status kept and no line, so no password is ever lost. A file there "
                    + "that is not a batch report is refused: give another --report FILE, or move the old one away first. An account that exists and "
                    + "whose password neither the CSV nor that report gives is not updated (its row fails and says so).",
                "An account that exists is reported as 'exists' (--on-exists skip, the default), counted as a failure "
                    + "(fail), or logged into with the row's password to apply its profile columns (update). The email column "
                    + "is sent with the registration when the server's form asks for it. The other profile columns are set "
                    + "after registration by logging in as the account: nickname, fullname and email into its vCard and its "
                    + "vCard4 PEP node (XEP-0292), the nickname also into the nickname node (XEP-0172) that mobile clients "
                    + "show, both with the server's default access model; avatar "
                    + "(resized once per image, however many rows share it) as its vCard photo and PEP avatar. A column the "
                    + "server refuses leaves the row created, with 'profile: pending' and the reason; running the same CSV "
                    + "again with --on-exists update sets them. Profile "
                    + "columns, --on-exists update, --delete and --passwd log in as each account, --jobs accounts at once.",
                "Rosters between the batch's accounts come from two optional columns, each a ';'-separated list ('\\;' for "
                    + "a literal ';'): groups, the roster groups the row's account belongs to, and contacts, JIDs of other rows or "
                    + "names of groups (every row whose groups column has that name). Every pair is mutual: a row that names "
                    + "another gets it, and the other gets the row, each filed under the other's groups and named by its "
                    + "fullname (or nickname). Giving every teacher every other teacher in a group Teachers is groups=Teachers, "
                    + "contacts=Teachers on each teacher's row; pupils with groups=Class 5A and contacts=Class 5A;Teachers see "
                    + "their class and the teachers, and the teachers see them under Class 5A. A contact that is neither a row "
                    + "nor a group makes its row invalid. After the accounts are made (with or without --admin), the batch logs "
                    + "in as each account, --jobs at a time, with the password the CSV gives or the one it generated: first it "
                    + "sets each contact's roster item and asks for a subscription, then, once every account has asked, it "
                    + "approves each request waiting for it, so every pair ends subscribed both ways without anybody online to "
                    + "answer. Each pass reads the account's roster first and sends only what it lacks: an item that is "
                    + "missing or named or grouped otherwise, a request where no subscription or request stands, an approval "
                    + "where the contact does not yet see the account. The journal records each account's pass (the report's "
                    + "roster column: pending, requested, done, unchanged, failed), --resume continues where it stopped, and "
                    + "running a CSV again with the same --report (which holds the passwords) redoes nothing that is in place: "
                    + "an account that existed before the run, whose contacts are those an earlier run finished with and none "
                    + "of whose contacts is new, is not even logged in to ('unchanged'; remembered in the state directory's "
                    + "batch/rosters.sqlite3), so one more pupil costs the pupil, its class and the teachers. The server's "
                    + "roster storage sets the pace: each pair is about ten roster writes on the server, and Prosody's default "
                    + "storage rewrites the account's whole roster file for each (see DESIGN-NOTES.md). The contacts column needs the "
                    + "whole CSV in one run (not --shard) and the accounts' passwords (not --invite).",
                "These rosters differ from the server's shared rosters (Prosody mod_groups with its groups file, ejabberd "
                    + "mod_shared_roster with its groups made by ejabberdctl srg_create or the web admin): a shared roster is "
                    + "computed by the server at every log-in, never stored in the accounts' rosters, follows the group's "
                    + "members as they change, needs no subscriptions, and cannot be changed from a client; it needs the "
                    + "server's configuration (and, for Prosody, a restart or reload). The batch's rosters are ordinary roster "
                    + "items with approved subscriptions: stored, on any server, visible to every client, and each user may "
                    + "rename, regroup or remove them afterwards; a member who joins later is added by running the batch with "
                    + "the new rows.",
                "--shared-groups leaves the rosters to the server's shared roster groups: the accounts are made as "
                    + "always, but no account is logged in to for its roster (no roster phase, no roster column in the "
                    + "report); xmpp-register shared-groups FILE --for prosody|ejabberd writes the server's groups from "
                    + "the same CSV (its page says how to load them and when to choose them). The two differ as said above; "
                    + "on Prosody's default storage a school's per-account rosters take hours, its groups file none.",
                "--delete is idempotent, like rm -f: an account that does not exist (deleted before) is reported 'deleted' "
                    + "with the note 'no such account'. Prosody and ejabberd refuse a log-in to an account that does not exist "
                    + "before their first SCRAM challenge, which a wrong password gets past; where a server does not tell the two "
                    + "apart, the row fails with 'wrong password, or no such account', since the account may still exist.",
                "--json prints one JSON Line per finished row, every key on every row (null when it does not apply): line, jid, "
                    + "status (created, exists, updated, deleted, changed, failed or invalid; valid with --dry-run), error (null "
                    + "on success), profile (null, applied or pending), pending_columns (the profile columns still to set, or "
                    + "null), note (a remark on a success that is no error, such as no such account, or null). --report writes "
                    + "the same as CSV, atomically with mode 0600: line, jid, status, error, profile, then password when the batch "
                    + "has generated passwords (they appear nowhere else), then note, then the row's own name (its fullname, "
                    + "or its nickname) and groups when the CSV has those columns, so the report alone is enough to hand "
                    + "passwords out by name. A row not finished yet shows its journal "
                    + "state there: pending, sent, conflict, or registered (created, its profile still to set). A progress bar "
                    + "with rate and ETA is drawn on stderr when it is a terminal, then one for each pass of the roster "
                    + "phase (rosters, requests; rosters, approvals), counting accounts; an account given up is named as it "
                    + "happens; a summary follows, counting what the server did.",
                "A server that throttles registrations is waited for, with back-off, and every row is tried again; "
                    + "after a while without any progress the batch stops with exit status 11, and --resume continues "
                    + "later. A server closed to this client (registration closed or by invitation only) stops the batch "
                    + "at its first answer with exit status 10, leaving the rows to do, rather than failing every row alike: "
                    + "the requests already in flight are answered first (3 s at most), so a refused row's generated "
                    + "password is dropped, and the message names the batch's ways forward, --admin as the server's "
                    + "administrator or --invite. That run takes the stopped run's journal over (above).",
                "--report-by-group DIR writes the report once more, split by the groups column, for handing passwords "
                    + "(or invites) out class by class: DIR/group-NAME.csv for each group with the rows of its members (a row in "
                    + "several groups is in each file), and DIR/ungrouped.csv for rows in none, each with the report's "
                    + "columns (name included), mode 0600, written atomically whenever the report is, and in the CSV's own "
                    + "dialect (its delimiter, byte-order mark or UTF-16, sep= line and line ends: a spreadsheet opens them as it "
                    + "opened the export; RFC 4180 for an LDIF input). DIR is made with mode "
                    + "0700 when missing, and refused, before the first account is made, when it is a symbolic link, another user owns it, or others can write in it or in a directory above it. In NAME, the "
                    + "group's letters, digits, spaces and _ ( ) + , . - stay as they are, and every other character (/, %, $, "
                    + "control characters) is percent-encoded as UTF-8 bytes (5/A becomes group-5%2FA.csv), "
                    + "so no group's file can leave DIR or share another's name. A file of a group that is no longer in the "
                    + "CSV is left as it was. A split that cannot be written fails the run (status 1); the report, written "
                    + "first, has every row.",
                "--admin provisions through the server's administration commands (XEP-0133) instead of in-band "
                    + "registration, for servers where registration is closed: the administrator logged in with "
                    + "xmpp-login (the active account, or -a ADMIN) runs add-user for each row, or with --delete "
                    + "delete-user, or with --passwd change-user-password. Without --server, --direct-tls, --ca-file or --pin on "
                    + "the command line, the rows of the administrator's own domain use those xmpp-login remembered for the "
                    + "administrator (so 'xmpp-login admin@example.org --server HOST --ca-file CA' once is enough). "
                    + "--delete and --passwd then need no password "
                    + "column (--passwd still needs new_password, or --generate-passwords), since no account logs in. "
                    + "--jobs streams authenticated as the administrator each learn the command's form once and then "
                    + "carry --jobs-many rows' commands in flight at a time, as registration streams do; the journal, "
                    + "--resume, the report, the JSON rows and the exit statuses are those of batch registration. Profile "
                    + "columns and --on-exists update still log in as each new account. Prosody needs mod_admin_adhoc "
                    + "and the administrator in admins; ejabberd mod_adhoc and mod_configure with the administrator "
                    + "allowed by its configure access rule. An account that is not an administrator stops the batch "
                    + "before any row is sent, with exit status 12; the rows stay in the journal for --resume.",
                "--invite creates, as the administrator (as --admin does), one account invite per row with the "
                    + "server's create-account command (Prosody: mod_invites, mod_invites_adhoc, mod_invites_register) "
                    + "and handles no password at all: the row is reported 'invited', and --report (mode 0600, which "
                    + "--invite needs) gets the columns invite (the xmpp: URI of XEP-0379, to give the person) and "
                    + "landing_page (the server's web page for it, empty without mod_invites_page) in place of "
                    + "password; the note says until when it is valid. Invites are credentials: like generated "
                    + "passwords they appear nowhere but the report, and are wiped from the journal once it is written. "
                    + "The person redeems it with xmpp-register JID --invite URI, or any client that opens the URI. "
                    + "Prosody 0.12's command makes an invite for any user name, so the row's JID is what the "
                    + "report suggests, not what the server reserves. Running the batch again makes new invites.",
                "The exit status is 0 when every row succeeded and 1 when some did not. SIGINT (Ctrl-C) or SIGTERM stops the "
                    + "batch: requests in flight are awaited (3 s at most) and recorded, the report is written, the summary "
                    + "counts every account the server created, and the status is 130 (SIGINT) or 143 (SIGTERM); --resume "
                    + "continues. A second signal ends the program at once; the journal is safe either way.",
            ],
            options: [jobs, window, maxStreamAge, resume, dryRun, strict, onExists, report, reportByGroup, domain, shard, generatePasswords, delete, passwd, admin, invite,
                      sharedGroups, format, map],
            positionals: [file],
            rules: [
                .exclusive("delete", "passwd"),
                .exclusive("on-exists", "delete", because: "--on-exists applies to creating accounts"),
                .exclusive("on-exists", "passwd", because: "--on-exists applies to creating accounts"),
                .exclusive("generate-passwords", "delete", because: "the CSV's passwords log in"),
                .exclusive("invite", "delete", because: "--invite creates invites, not accounts"),
                .exclusive("invite", "passwd", because: "--invite creates invites, not accounts"),
                .exclusive("invite", "generate-passwords", because: "--invite creates invites, not accounts"),
                .exclusive("invite", "on-exists", because: "--invite creates invites, not accounts"),
                .requires("invite", "report", because: "the report is the only place the invites are written"),
                .requires("report-by-group", "report", because: "the split is made from the report, which keeps every row"),
            ],
            examples: [
                Example("xmpp-register batch staff.csv --jobs 8 --report staff-report.csv",
                        "Create the accounts of staff.csv over 8 streams and keep a report."),
                Example("xmpp-register batch staff.csv --dry-run --json | jq -r 'select(.status==\"invalid\") | \"\\(.line) \\(.error)\"'",
                        "List the rows that would be refused, with their line numbers."),
                Example("cut -d, -f1 users.csv | sed 1s/.*/username/ | xmpp-register batch - --domain example.org --generate-passwords --report pw.csv",
                        "Create accounts from a list of user names with generated passwords."),
                Example("xmpp-register batch staff.csv --report r.csv --resume", "Continue a run that was interrupted."),
                Example("xmpp-register batch staff.csv --shard 2/4 --report r2.csv", "Run the second quarter on this machine."),
                Example("xmpp-register batch staff.csv --shard 1/2 --report r1.csv & "
                            + "xmpp-register batch staff.csv --shard 2/2 --report r2.csv; wait; "
                            + "{ head -n 1 r1.csv; tail -q -n +2 r1.csv r2.csv | sort -t, -k1,1n; } > all.csv",
                        "Run both halves at once (as two machines would, each with its --server), then merge their "
                            + "reports, each of which holds only its own rows, into one report of every row in the CSV's "
                            + "order. The shards must all have generated passwords or none (one header). sort keeps rows "
                            + "whole as long as no field holds a line break; without it the rows follow shard by shard. "
                            + "For --json rows: cat s1.jsonl s2.jsonl | jq -sc 'sort_by(.line)[]'."),
                Example("xmpp-register batch leavers.csv --delete --json | jq -c 'select(.error)'", "Delete accounts, showing failures."),
                Example("xmpp-register batch pupils.csv --admin -a admin@school.example --generate-passwords --report pw.csv",
                        "Create accounts as the administrator where registration is closed."),
                Example("xmpp-register batch teachers.csv --domain school.example --admin --generate-passwords --report pw.csv",
                        "With a header username,groups,contacts and a row ann,Teachers,Teachers per teacher: create the "
                            + "teachers and give each all the others in a group Teachers, subscribed both ways."),
                Example("ldapsearch -x -LLL -H ldap://ldap.school.example -b ou=People,dc=school,dc=example '(objectClass=inetOrgPerson)' "
                            + "| xmpp-register batch - --map uid=username,cn=fullname,mail=email,jpegPhoto=avatar,ou=groups "
                            + "--domain school.example --admin --generate-passwords --report pw.csv",
                        "Create an account for every person in the directory, with the name, photo and class groups it holds."),
                Example("xmpp-register batch pupils.csv --invite --report invites.csv",
                        "Make an invite link per pupil instead of accounts and passwords."),
            ]
        )

        /// A whole-number option left out of help, man pages and completions (tuning for tests).
        private static func hiddenInteger(_ long: String, value: String, help: String, in range: ClosedRange<Int>) -> Option<Int> {
            Option(spec: OptionSpec(long, value: value, help: help, hidden: true),
                   expected: "an integer from \(range.lowerBound) to \(range.upperBound)",
                   convert: { text in Int(text).flatMap { range.contains($0) ? $0 : nil } })
        }

        let context: AccountContext
        let options: BatchOptions

        init(_ invocation: Invocation) throws {
            context = invocation.context
            options = try BatchOptions(invocation.command)
        }

        /// Checks every row, then (unless `--dry-run`) works through them with the engine,
        /// printing each outcome once it is journaled, and ends with the report and a summary.
        func run() throws {
            var configuration = options.configuration(common: context.common)
            configuration.reportByGroup = options.reportByGroup.map(source.absolute)
            let output = BatchOutput(program: env.program, json: context.common.json, quiet: context.common.quiet,
                                     showProgress: Output.stderrIsTTY && !context.common.quiet)
            if options.dryRun && !options.strict {
                // Row by row: a dry run holds no more than the accounts seen (for duplicates).
                let rows = try source.rows(configuration: &configuration, format: options.format, map: options.map, output: output)
                try configuration.directoryMap?.check(generatePasswords: options.generatePasswords)
                noteColumns(rows.columns, output: output)
                return try BatchDryRun.report(rows.next, json: context.common.json, output: output)
            }
            let sheet = try source.sheet(configuration: &configuration, format: options.format, map: options.map, output: output)
            try configuration.directoryMap?.check(generatePasswords: options.generatePasswords)
            noteColumns(sheet.columns, output: output)
            let invalid = sheet.invalid
            if options.strict && !invalid.isEmpty {
                for bad in invalid { output.row(RowOutcome(invalid: bad)) }
                throw ToolFailure(.badInput, "\(invalid.count) invalid row\(invalid.count == 1 ? "" : "s"); nothing was sent (--strict)")
            }
            if options.dryRun {
                var rows = sheet.rows.makeIterator()
                return try BatchDryRun.report({ rows.next() }, json: context.common.json, output: output)
            }
            try execute(sheet, configuration: configuration, output: output)
        }

        /// What the header's columns mean for this run, said before the rows.
        private func noteColumns(_ columns: BatchColumns, output: BatchOutput) {
            if options.sharedGroups && options.mode == .create && !columns.presentRosterColumns.isEmpty && !context.common.quiet {
                output.note("no per-account rosters (--shared-groups): load the server's groups from "
                    + "'xmpp-register shared-groups \(options.input) --for prosody|ejabberd'")
            }
            let creationOnly = columns.presentProfileColumns + columns.presentRosterColumns
            if options.mode != .create && !creationOnly.isEmpty {
                output.note("ignoring profile and roster columns with --\(options.mode.rawValue): " + creationOnly.joined(separator: ", "))
            }
        }

        private var env: ToolEnvironment { context.environment }

        private var source: BatchSheetInput { BatchSheetInput(path: options.input, environment: env) }

        private func absolute(_ path: String) -> String { source.absolute(path) }

        private func execute(_ sheet: BatchSheet, configuration: BatchConfiguration, output: BatchOutput) throws {
            let reportPath = options.report.map(absolute)
            try source.requireDistinct(output: options.report, option: "--report")
            let batch = try BatchRun(sheet: sheet, configuration: configuration, reportPath: reportPath, stateDirectory: env.paths.state)
            if let differences = batch.replacedUntouched {
                let what = differences.isEmpty ? "" : " (" + JournalWords.phrases(differences).joined(separator: "; ") + ")"
                output.note("replacing the journal of an unfinished run\(what) that the server did nothing for: "
                    + "no account was created or changed and it held no password")
            }
            if let differences = batch.resumedAcross {
                output.note("resuming the journal's run of this CSV (" + JournalWords.phrases(differences).joined(separator: "; ") + ")")
            }
            if !batch.resumed {
                if options.resume { output.note("no journal of this batch to resume: starting from the beginning") }
                for bad in sheet.invalid { output.row(RowOutcome(invalid: bad)) }
            }
            let plan = try batch.plan()
            if batch.resumed { output.note("resuming: \(plan.doneEarlier) rows done earlier, \(plan.toDo) to go") }

            let adminSession = options.admin || options.invite ? try AdminLogin.session(context) : nil
            let (end, fatal) = try batch.executeShowingProgress(plan, context: context, admin: adminSession, output: output)

            let finish = try batch.finish()
            // A report that could not be written is a failed run (status 1), never a success.
            let reportProblem = finish.reportFailure.map { failure in
                let kept = finish.reportHasPasswords ? "; it keeps the generated passwords until a --resume writes the report" : ""
                return "cannot write the report: \(failure) (the journal \(batch.journal.path) has every outcome\(kept))"
            }
            let groupProblem = finish.groupReportFailure.map { failure in
                "cannot write the report split by group: \(failure) (the report \(reportPath ?? "") has every row)"
            }
            let summary = BatchSummary(entries: finish.entries, ranFor: output.elapsedSeconds, finishedThisRun: batch.finishedThisRun,
                                       rostersThisRun: batch.rostersThisRun)
            try BatchVerdict(end: end, fatal: fatal, summary: summary, finished: finish.finished, journalPath: batch.journal.path,
                             reportPath: reportPath, reportProblem: reportProblem ?? groupProblem,
                             journalUntouched: batch.journal.serverUntouched()).conclude(output: output)
        }
    }
}
