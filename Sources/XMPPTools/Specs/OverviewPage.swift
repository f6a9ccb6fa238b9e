import Arguments

/// The section 7 page `xmpp-tools(7)`: what every program of the suite shares (accounts and
/// sessions, what is stored and how, JSON output, the cache, exit statuses, security options).
/// Its program table, exit statuses, environment, files and references come from the specs and
/// `ExitCode`, so it follows `AllSpecs` without edits.
public enum OverviewPage {
    /// The page for the suite made of `tools`.
    public static func page(tools: [ToolSpec]) -> ManualPage {
        ManualPage(
            name: "xmpp-tools", section: "7", summary: "command-line programs for XMPP accounts and what they share",
            sections: [
                .init("DESCRIPTION", description(tools)),
                .init("ACCOUNTS AND SESSIONS", accounts),
                .init("CONNECTING", connecting),
                .init("STORED DATA", stored),
                .init("JSON OUTPUT", json),
                .init("OUTPUT FILES AND STANDARD OUTPUT", writing),
                .init("THE CACHE", cache),
                .init("SHELL COMPLETION", completion),
                .init("EXIT STATUSES", exitStatuses),
                .init("ENVIRONMENT", [.definitions(environment, style: .environment)]),
                .init("FILES", [.definitions(CommonSpec.files, style: .path)]),
                .init("EXAMPLES", examples),
                .init("SEE ALSO", [.references(tools.map { $0.name + "(1)" } + [OperatorGuidePage.name + "(7)", "jq(1)", "sqlite3(1)"])]),
                .init("STANDARDS", [.definitions(standards, style: .plain)]),
                .init("SECURITY CONSIDERATIONS", security),
            ])
    }

    private static func description(_ tools: [ToolSpec]) -> [ManualPage.Block] {
        [
            .paragraph(
                "The xmpp-tools programs do XMPP account work from a shell: create accounts, log in once, and "
                    + "manage rosters, vCards and avatars, with text for people and JSON for pipes."),
            .definitions(tools.map { Definition($0.name, $0.summary) }, style: .command),
            .paragraph(
                "This page describes what they share. Each program's own page lists its commands and options; "
                    + "every program and command also prints its help with -h or --help."),
        ]
    }

    private static let connecting: [ManualPage.Block] = [
        .paragraph(
            "Every program finds the server of a domain by its SRV records (_xmpps-client._tcp for direct TLS, "
                + "_xmpp-client._tcp for STARTTLS; with --direct-tls only the first) and tries the targets in the order "
                + "RFC 2782 gives: by priority, and among targets of one priority in a random order weighted by their "
                + "weights (a weight-0 target rarely first), direct-TLS targets before STARTTLS ones of the same "
                + "priority. Without SRV records it connects to the domain itself, port 5222 (5223 with --direct-tls)."),
        .paragraph(
            "--server HOST[:PORT] replaces the look-up; given more than once, the servers are tried in the order "
                + "given, and xmpp-login remembers them all in that order, so later commands fail over as the log-in did. A target that cannot be reached (the connection is "
                + "refused, the name does not resolve, the connection drops) is left for the next. While other targets "
                + "are left, a TCP connect may take 3 s: a target that never answers (a dead host, a firewall dropping "
                + "packets) costs 3 s, not --timeout. The last target gets the whole --timeout for its connect, and "
                + "every wait on a server that answered is bounded by --timeout. A certificate or protocol failure is "
                + "an answer, not an unreachable target: the program stops there rather than trying the next. "
                + "xmpp-register batch spreads its streams over all the targets (xmpp-register(1))."),
    ]

    private static let accounts: [ManualPage.Block] = [
        .paragraph(
            "An account is a bare JID, user@domain. xmpp-login JID authenticates with the password once and "
                + "caches a session: what is needed to authenticate again without the password. Every other "
                + "program then works with the cached session, without a password and without flags. "
                + "xmpp-register JID --login creates an account and logs in to it in one step."),
        .paragraph(
            "The account logged in last is the active one. Every program uses it unless -a JID (--account) "
                + "or XMPP_ACCOUNT names another. xmpp-login list shows the accounts (* marks the active one), "
                + "xmpp-login switch JID makes another one active, and xmpp-login logout forgets a session; "
                + "logging out of an account that is not logged in succeeds, so scripts may call it freely."),
        .paragraph(
            "xmpp-login remembers --server, --direct-tls, --ca-file and --pin with the account, so later "
                + "commands need none of them. Where to connect (--server, --direct-tls) and whom to trust "
                + "(--ca-file, --pin, --insecure) are two groups: an option given on the command line replaces "
                + "its whole group. xmpp-login status shows what is remembered, a new login with other options "
                + "changes it, and xmpp-login forget-settings clears it. When the password is changed elsewhere the cached keys stop "
                + "working: programs say so and exit with status 3, and xmpp-login JID makes a new session. "
                + "xmpp-register passwd changes the password and refreshes the session itself."),
        .paragraph(
            "Passwords never come from the command line, where other users could read them in the process "
                + "list. They are read, in this order, from --password-file FILE (its first line), "
                + "--password-stdin (the first line of standard input), XMPP_PASSWORD, or a prompt on the "
                + "terminal with echo off."),
        .paragraph(
            "Every program that talks to the server as the account also works without a cached session: "
                + "given -a JID and a password for the run (--password-file, --password-stdin or XMPP_PASSWORD), "
                + "it authenticates with that password (SCRAM; PLAIN only over TLS and never for an account that "
                + "has used SCRAM) and neither reads nor writes a session. A password given for the run is used "
                + "in place of a cached session."),
        .paragraph(
            "A session is one of these kinds, in the order xmpp-login prefers them, and xmpp-login status "
                + "names it (session_kind): fast, a FAST token (XEP-0484) where the server offers SASL2 with "
                + "FAST, rotated on each use and invalidated by xmpp-login logout; scram-keys, the cached SCRAM "
                + "keys, where the server's salt stays the same; or password-command, where it does not (a server that stores plain-text passwords "
                + "salts every login anew) or the server has no SCRAM: xmpp-login JID --password-command "
                + "'pass show xmpp/bot' (or 'secret-tool lookup …') keeps the command, never the password, and "
                + "every program runs it through /bin/sh when it authenticates, as msmtp's passwordeval and "
                + "isync's PassCmd do. A command that fails, prints nothing or does not end within --timeout "
                + "seconds is exit status 3, naming the command; at the deadline it is stopped with everything it "
                + "started (see SECURITY CONSIDERATIONS)."),
        .paragraph(
            "Wherever a contact's JID is expected, a name without @ means that name on the account's own "
                + "domain. Each run binds its own resource unless --resource names one (xmpp-tools.RANDOM, or with a "
                + "FAST session one the server picks at random), so "
                + "two programs using one account at once never knock each other off the server."),
        .paragraph(
            "JIDs are read as RFC 7622 says and kept in one canonical form, which is what is shown, sent, "
                + "cached and compared: the user part lowercased with fullwidth letters made plain (PRECIS "
                + "UsernameCaseMapped; symbols and compatibility characters such as a Roman numeral or a "
                + "circled letter are refused, not rewritten), the domain in Unicode (an xn-- label and its Unicode form are one domain, "
                + "IDNA2008), and the resource as typed with other spaces made plain ones (PRECIS "
                + "OpaqueString). A refused character that cannot be seen is named as U+XXXX. --resource is read "
                + "as a resource is: a control character, an invisible one or an empty value is refused before "
                + "connecting (exit status 9), never sent for the server to replace."),
    ]

    private static let stored: [ManualPage.Block] = [
        .paragraph(
            "The configuration directory, $XDG_CONFIG_HOME/xmpp-tools (by default ~/.config/xmpp-tools), is "
                + "created with mode 0700. It holds two things:"),
        .definitions(
            [
                Definition(
                    "accounts.json",
                    "The active account and, for each account, its connection settings: server and port, direct "
                        + "TLS, the CA file as an absolute path and the key pin (never --insecure), and whether the "
                        + "account has authenticated with SCRAM (so that PLAIN is refused from then on)."),
                Definition(
                    "sessions/JID",
                    "One file per logged-in account, mode 0600: the SCRAM mechanism, salt, iteration count and "
                        + "the derived ClientKey and ServerKey, which RFC 5802 allows a client to cache. Never the "
                        + "password. Whoever can read this file can log in as the account until its password "
                        + "changes, but cannot learn the password from it. For a password-command session it "
                        + "holds the command instead. A session file that other users could "
                        + "read is refused (exit status 3), and so is one that is not the user's own or is a "
                        + "symbolic link (exit status 1)."),
            ], style: .path),
        .paragraph(
            "A server that offers no SCRAM mechanism cannot give a password-free session: xmpp-login refuses "
                + "rather than store the password, before sending it. Every write is atomic, a temporary file renamed over the old "
                + "one or a single SQLite transaction, so an interrupted program never leaves a half-written file."),
        .paragraph(
            "Programs that run at once lose nothing of each other's changes: a change of accounts.json, such as "
                + "a log-in, reads, changes and replaces the file while holding a lock in locks/, and so does a "
                + "change of an account's own vCard (xmpp-vcard set and import, xmpp-avatar set and remove), from "
                + "fetching the current card to publishing the merged one. The lock is for programs on this "
                + "machine; the kernel releases it when a program ends, however it ends."),
        .paragraph(
            "A configuration directory that cannot be written, a read-only home or a container's read-only "
                + "mount, still serves every command that only uses the cached session. With a FAST session the "
                + "server may rotate the token on use: the new token cannot be kept, so the program warns, naming "
                + "the directory and the reason, and the session file's token stays in use for as long as the "
                + "server accepts it (Prosody 13 keeps a replaced token valid until its successor is used; "
                + "ejabberd 24.12 does not rotate). A change of the own vCard goes ahead without its lock, with "
                + "a warning. What has to write there, a log-in, log-out or switch, fails naming the file it "
                + "cannot write (exit status 1)."),
    ]

    private static let writing: [ManualPage.Block] = [
        .paragraph(
            "Options that name a file to write, such as -o FILE and --report FILE, replace a regular file "
                + "atomically: a temporary file in the same directory is written, synced and renamed over it, and "
                + "the directory is synced. A device or a FIFO (/dev/null, a named pipe) is written in place and "
                + "stays what it is. A symbolic link is followed: the file it names is replaced atomically, or "
                + "created, and the link stays; but not for a file that holds secrets (--report, whose file may "
                + "hold passwords), which is never written through a link and must be the user's own (see "
                + "SECURITY CONSIDERATIONS). A directory that does not exist is not created: the program says "
                + "which path it cannot write and exits with status 1, as does a batch whose report could not be "
                + "written."),
        .paragraph(
            "A failed write of standard output, a full disk for one, is an error like any other: the program "
                + "stops, says 'cannot write standard output' and the reason, and exits with status 1, even if "
                + "what it did on the server has been done. When the reader of standard output goes away, as "
                + "head(1) does after its lines, the program stops quietly, as other Unix programs do: it ends by "
                + "SIGPIPE (status 141 in the shell) without a message."),
    ]

    private static let json: [ManualPage.Block] = [
        .paragraph(
            "Text output is for people and may change. With --json a command prints one JSON document on "
                + "standard output instead, with stable snake_case keys: a key, once documented, keeps its name "
                + "and meaning. An absent value is null rather than a missing key, and no results is an empty "
                + "array with exit status 0."),
        .paragraph(
            "Commands that report as they go, such as watch and batch, and commands that read a list from "
                + "standard input print JSON Lines instead: one compact document per line, flushed as each "
                + "result is ready, so jq and other readers can act on each line at once."),
        .paragraph(
            "Data goes to standard output only. Notes, warnings, progress and errors go to standard error; "
                + "an error is a single line, the program's name, a colon and the reason, and the exit status "
                + "says what kind of failure it was. -q (--quiet) drops the notes and warnings."),
        .paragraph(
            "Text that others chose (names, groups, status messages, vCard fields, server error texts) and "
                + "text quoted in errors cannot forge a line or drive the terminal: in text output and on standard "
                + "error a newline, carriage return, tab or escape is written \\n, \\r, \\t or \\e, and the other "
                + "control characters and the bidirectional controls U+XXXX. JSON output escapes them the JSON way "
                + "(\\n, \\u001b, \\u202e), so parsers read back the very characters."),
        .literal(["xmpp-login list --json | jq -r '.[] | select(.active) | .jid'"]),
    ]

    private static let cache: [ManualPage.Block] = [
        .paragraph(
            "$XDG_CACHE_HOME/xmpp-tools/cache.sqlite3 keeps what programs last fetched from the server: "
                + "rosters with their roster version (XEP-0237), so that a refresh transfers only the changes, "
                + "vCards and avatars. Options such as --cached answer from it without the network, and shell "
                + "completion reads contacts from it."),
        .paragraph(
            "The cache is disposable: deleting it loses nothing that the server does not hold. It uses "
                + "SQLite's write-ahead log and a busy timeout, so several programs may use it at once. A file "
                + "that is not an SQLite database or fails its integrity check is deleted and rebuilt, with a "
                + "warning on standard error; one that is locked for too long, cannot be opened or cannot be "
                + "written (a full disk) is left as it is, and the program says why it went without the cache."),
    ]

    private static let completion: [ManualPage.Block] = [
        .paragraph(
            "Completion scripts for bash, zsh and fish complete commands, options, option values and file "
                + "names, and JIDs from local files: accounts for --account and the commands that take an "
                + "account, contacts and groups of the account in scope where a contact or a group is expected. The account "
                + "in scope is the one the command would use: -a (--account) on the line being completed, then "
                + "XMPP_ACCOUNT, then the active account. A candidate holding a space or a quote is inserted "
                + "quoted, as the word was begun (bare, or after a quote). For these the script "
                + "runs the program itself, which answers from accounts.json, the sessions directory and the "
                + "cache only: no network, no password, no prompt. The hidden request is"),
        .literal(["PROGRAM __complete KIND [--account JID]"]),
        .paragraph(
            "with KIND accounts, contacts, groups (xmpp-roster) or vcards (xmpp-vcard); it prints one candidate per line and exits 0, printing nothing "
                + "for a kind it does not know."),
    ]

    private static var exitStatuses: [ManualPage.Block] {
        [
            .paragraph("Every program exits with one of these statuses; its own page lists them too."),
            .definitions(ExitCode.allCases.map { Definition(String($0.rawValue), $0.meaning) }, style: .plain),
            .paragraph(
                "A script can tell an account that exists (5) from a server that refuses (8) or cannot be "
                    + "reached (6), and retry only what is worth retrying: registration that is closed to it (10) "
                    + "will not open by trying again, registration that is throttled (11) will."),
        ]
    }

    private static var environment: [Definition] {
        [Definition("XMPP_ACCOUNT", "The account to use when -a (--account) is not given.")] + CommonSpec.environment
    }

    private static let examples: [ManualPage.Block] = [
        .paragraph("Create an account on a private server with its own certificate authority, and log in to it:"),
        .literal([
            "$ xmpp-register bot@xmpp.example.net --server 192.0.2.7:5222 \\",
            "    --ca-file ca.pem --password-file pw.txt --login",
        ]),
        .paragraph("Use a second account for one command, then make it the active one:"),
        .literal(["$ xmpp-login status -a work@example.com", "$ xmpp-login switch work@example.com"]),
        .paragraph("Stop a script when the session no longer works:"),
        .literal([
            "$ xmpp-login status -q || { echo \"log in again\" >&2; exit 1; }"
        ]),
        .paragraph("Compute the pin of a server's public key from its certificate, for --pin:"),
        .literal([
            "$ openssl x509 -in server.pem -pubkey -noout |",
            "    openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64",
        ]),
    ]

    private static let standards: [Definition] = [
        Definition("RFC 6120, RFC 6121", "XMPP core, instant messaging and presence: streams, rosters."),
        Definition("RFC 5802, RFC 7677", "SCRAM-SHA-1 and SCRAM-SHA-256 authentication, with channel binding."),
        Definition("XEP-0077", "In-band registration."),
        Definition("XEP-0004", "Data forms."),
        Definition("XEP-0054, XEP-0153", "vcard-temp and vCard-based avatars."),
        Definition("XEP-0084", "User avatars."),
        Definition("XEP-0237", "Roster versioning."),
        Definition("XEP-0368", "SRV records for XMPP over TLS (direct TLS)."),
    ]

    private static let security: [ManualPage.Block] = [
        .paragraph(
            "Every connection uses TLS, by STARTTLS or, with --direct-tls, from the first byte. The server's "
                + "certificate is verified against the system's trusted authorities and must name the JID's "
                + "domain, even when --server gives an IP address. Three options change whom to trust:"),
        .definitions(
            [
                Definition(
                    "--ca-file PATH",
                    "Trust the authorities in this PEM file instead of the system store: for a private server."),
                Definition(
                    "--pin sha256/BASE64",
                    "Require that the SHA-256 of the server's public key (SubjectPublicKeyInfo) equals this pin. "
                        + "Without --ca-file the pin alone is the trust decision and the chain is not verified, "
                        + "as with DANE-EE; with --ca-file both must hold."),
                Definition(
                    "--insecure",
                    "Verify nothing. Anyone on the network path can read and change the session, the password "
                        + "included. Every use prints a warning, even with -q. It is never remembered, so each run "
                        + "that wants it must say so, and it cannot be combined with --pin or --ca-file."),
            ], style: .command),
        .paragraph(
            "Authentication prefers SCRAM-SHA-512, then -256, then -1, with channel binding (-PLUS) where the "
                + "server supports it, and verifies the server's signature. PLAIN is used only over TLS and never "
                + "for an account that has used SCRAM before, so an attacker cannot downgrade a login to learn "
                + "the password. A server that asks for more than 600000 SCRAM iterations is refused, so it "
                + "cannot make a login burn seconds of CPU. The name is looked for in the certificate's "
                + "subjectAltName only: a certificate that names the server in its subject's CN alone is refused "
                + "(RFC 6125), and so is a server that binds the session to a JID of another domain."),
        .paragraph(
            "--trace shows the XML exchanged with credentials redacted by what they are, not by what they are "
                + "called: SASL and SASL2 payloads, FAST tokens, registration passwords, invite tokens (the "
                + "token of <preauth/> and every preauth= in a URI, and the same token wherever else it appears, "
                + "such as an invite's landing page), the values of data-form fields of type text-private "
                + "(also in the form sent back, which carries no types), and the fields xmpp-adhoc "
                + "--password-field names, whatever their name, with the password read for them wherever it "
                + "would appear. A trace may still hold personal data, such as contacts and vCards."),
        .paragraph(
            "Other users of the same machine are kept out as OpenSSH and git keep them out. A file or "
                + "directory the programs trust (the configuration, cache and state directories and everything "
                + "in them, accounts.json, session files, lock files, a batch report and its journal, and "
                + "SQLite's -wal, -shm and -journal files beside a database) must belong to the user running "
                + "the program (root's own, for root) and must not be writable by its group or others; "
                + "otherwise it is refused with an error that names the path and its owner, and exit status 1. "
                + "The programs' own directories must be real directories, not symbolic links, and are set to "
                + "mode 0700. A file that holds secrets is never written through a symbolic link: it is created "
                + "beside its path with O_EXCL, mode 0600, and renamed over it, and SQLite's files are created "
                + "the same way before SQLite opens them, so a file planted where one goes is refused rather "
                + "than adopted. The directory of --report must belong to the user or root and be writable by "
                + "nobody else, unless it is sticky as /tmp is; --report-by-group's directory must be the user's "
                + "own and not a symbolic link. Every directory above one that holds secrets, up to /, must "
                + "belong to the user or root and be writable by nobody else unless it is root's and sticky (as "
                + "OpenSSH checks the directories above a key): whoever can write in a directory above could "
                + "put another in its place. An output is compared with the input by device and inode, so "
                + "--report never overwrites the input however its path is spelt."),
        .paragraph(
            "Every program starts with core dumps off (RLIMIT_CORE 0, which what it starts inherits) and "
                + "marks itself not dumpable (PR_SET_DUMPABLE 0): a crash leaves no password or key on disk, "
                + "and no other process of the same user can attach to it or read its memory. A password "
                + "command runs in a process group of its own, without XMPP_PASSWORD in its environment; "
                + "--timeout covers it until it ends, and then, or at the deadline, the whole group is stopped, "
                + "so nothing it started outlives it (a daemon that detaches with setsid, as gpg-agent does, is "
                + "not in the group)."),
        .paragraph(
            "CSV files the programs write (xmpp-roster export --format csv, the batch report) never start a "
                + "cell with a character a spreadsheet reads as the start of a formula (=, +, -, @, tab, "
                + "carriage return, or their full-width forms): such a cell gets a leading apostrophe, as OWASP "
                + "recommends, which spreadsheets do not show. xmpp-roster import and the batch's reading of "
                + "its own report remove it again. An invite goes into a batch report only if it is an xmpp: "
                + "URI that registers an account of the row's domain, and its landing page only if it is an "
                + "http or https URL. A batch report shows control characters, C1 controls, bidirectional "
                + "controls and line separators as the terminal output does (\\n, U+202E), so a report can be "
                + "printed with cat or column -t safely."),
        .paragraph(
            "Text that ends up in a format of bytes (a shell script, Prosody's groups file, CSV, a file name) "
                + "is checked and escaped by its bytes, never by what Unicode joins into one character: a combining "
                + "mark after a quote, +, [ or / does not hide it. shared-groups quotes every argument of the "
                + "ejabberd script and refuses what Prosody's groups file cannot hold (it has no escapes)."),
    ]
}
