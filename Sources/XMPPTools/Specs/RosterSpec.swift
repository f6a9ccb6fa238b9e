import Arguments

/// The command line of `xmpp-roster`.
public enum RosterSpec {
    static let contact = PositionalSpec("JID", help: "The contact; a name without '@' means that name on the account's domain.",
                                        completion: .contacts)
    static let show = ["online", "chat", "away", "xa", "dnd"]

    /// The declaration that drives parsing, help, man page and completions.
    public static let spec = ToolSpec(
        name: "xmpp-roster",
        summary: "list and change an XMPP contact list, answer subscription requests, watch presence",
        description: [
            "xmpp-roster works on the roster (contact list) of the logged-in account: it lists contacts with their "
                + "subscription and presence, adds, renames, regroups and removes them, answers subscription "
                + "requests, moves a roster between accounts with export and import, and watches roster and "
                + "presence changes as they happen.",
            "Rosters are cached per account in the cache database with their version (XEP-0237), so a repeat list of "
                + "an unchanged roster transfers no contacts, and list --cached works without the network. "
                + "Wherever a contact is expected, a name without '@' means that name on the account's own domain.",
            "To learn presence, list and pending go online for a moment with a negative priority (no message meant "
                + "for your real clients is routed to them), wait for the server's answers behind a ping, then go "
                + "offline again. Contacts you are subscribed to that have not answered by then get a little longer "
                + "(until 0.3 s pass without news, 2 s at most): some servers, such as ejabberd, answer probes late.",
            "In text output, names, groups, nicknames and status messages (which others choose) have their control "
                + "characters escaped, as xmpp-tools(7) describes, so each contact or event stays one line.",
        ],
        version: CommonSpec.version,
        commonOptions: CommonSpec.options,
        subcommands: [
            CommandSpec("list", summary: "List contacts with subscription and presence.",
                        discussion: ["Presence is online, chat, away, xa, dnd or offline (unknown with --cached or --no-presence). "
                                     + "The subscription column shows none, to, from or both, with +ask while a request of yours is pending."],
                        options: [
                            .flag("online", help: "Only contacts that are available now."),
                            OptionSpec("group", value: "GROUP", help: "Only contacts in GROUP (repeat for any of several).", repeatable: true),
                            OptionSpec("subscription", value: "STATE", help: "Only contacts in this subscription state (ask: a request of yours is pending).",
                                       completion: .values(["none", "to", "from", "both", "ask"])),
                            .flag("cached", help: "Answer from the local cache without touching the network."),
                            .flag("no-presence", help: "Do not go online to learn presence."),
                        ],
                        examples: [Example("xmpp-roster list --online --json | jq -r '.[].jid'", "Print who is online.")]),
            CommandSpec("add", summary: "Add a contact and ask to see their presence.",
                        discussion: ["Adding a contact who is already there changes the name and groups given and keeps the others. "
                                     + "If you do not see their presence and no request of yours is pending (subscription none "
                                     + "or from: they removed you, refused you, or were added with --no-subscribe), it asks "
                                     + "again, unless --no-subscribe is given (subscription_requested is true with --json). "
                                     + "Adding yourself is exit status 9."],
                        options: [
                            OptionSpec("name", value: "NAME", help: "The name to show for the contact."),
                            OptionSpec("group", value: "GROUP", help: "Put the contact in GROUP (repeat for several).", repeatable: true),
                            .flag("no-subscribe", help: "Only add the roster item; send no subscription request."),
                        ],
                        positionals: [contact],
                        examples: [Example("xmpp-roster add bob --name Bob --group Friends --group Work", "Add bob on your domain in two groups and ask for his presence.")]),
            CommandSpec("remove", summary: "Remove a contact (and the subscriptions both ways); exit 4 if not in the roster.",
                        positionals: [contact],
                        examples: [Example("xmpp-roster remove bob@example.org || echo 'not in the roster'", "Remove a contact; exit status 4 says it was not there.")]),
            CommandSpec("rename", summary: "Change the name shown for a contact ('' removes it).",
                        positionals: [contact, PositionalSpec("NAME", help: "The new name.")],
                        examples: [Example("xmpp-roster rename bob@example.org 'Bob (work)'", "Change the name shown for a contact.")]),
            CommandSpec("group", summary: "Set the groups of a contact (none given: no groups).",
                        positionals: [contact, PositionalSpec("GROUP", help: "Groups, replacing the current ones.", optional: true, variadic: true)],
                        examples: [Example("xmpp-roster group bob Friends Family", "Put bob in exactly the groups Friends and Family.")]),
            CommandSpec("pending", summary: "List subscription requests waiting for an answer.",
                        discussion: ["The server redelivers waiting requests when the account comes online; pending goes online "
                                     + "for a moment with a negative priority to collect them. Prosody redelivers them to such a "
                                     + "resource; ejabberd only to resources with a priority of 0 or more (which would also take "
                                     + "the account's offline messages), so there pending finds none and watch shows requests as "
                                     + "they arrive."],
                        examples: [Example("xmpp-roster pending --json | jq -r '.[].jid'", "Print who waits for an answer.")]),
            CommandSpec("approve", summary: "Let a contact (or everyone waiting, with --all) see your presence.",
                        discussion: ["Approving someone who has not asked is refused with exit status 4 and leaves nothing "
                                     + "behind: the answer would be a pre-approval (RFC 6121 §3.4), which lets in whoever asks "
                                     + "from that address later, and Prosody adds a roster item to hold it; the tool undoes "
                                     + "both. --add-back asks for their presence only once the approval took."],
                        options: [
                            .flag("all", help: "Approve every pending request."),
                            .flag("add-back", help: "Also ask to see their presence in return, as auto-accepting clients do."),
                        ],
                        positionals: [PositionalSpec("JID", help: "The contact who asked.", optional: true, completion: .contacts)],
                        examples: [Example("xmpp-roster approve --all --add-back", "Accept every waiting request and subscribe back.")]),
            CommandSpec("deny", summary: "Refuse a subscription request, or revoke an approval.", positionals: [contact],
                        examples: [Example("xmpp-roster deny spammer@spam.example", "Refuse a request.")]),
            CommandSpec("export", summary: "Print the roster (JID, name, groups, subscription) as JSON or CSV.",
                        options: [OptionSpec("format", value: "FORMAT", help: "json (default) or csv.", default: "json",
                                             completion: .values(["json", "csv"]))],
                        examples: [Example("xmpp-roster export --format csv > roster.csv", "Save the roster for a spreadsheet.")]),
            CommandSpec("import", summary: "Merge an exported roster: add missing contacts, update names and groups.",
                        discussion: ["The format (JSON array as written by export or list --json, or CSV with a jid,name,groups header; groups "
                                     + "separated by ';') is detected. Contacts that the file shows as subscribed (to, both, ask) or that "
                                     + "have no subscription field get a subscription request unless --no-subscribe is given."],
                        options: [
                            .flag("dry-run", help: "Only show what would change."),
                            .flag("no-subscribe", help: "Send no subscription requests for added contacts."),
                        ],
                        positionals: [PositionalSpec("FILE", help: "The file, or - for standard input.", completion: .file(extensions: ["json", "csv"]))],
                        examples: [Example("xmpp-roster export -a old@example.org | xmpp-roster import - -a new@example.net --dry-run", "Show what moving a roster would change.")]),
            CommandSpec("watch", summary: "Stay online and print roster pushes, subscription requests and presence changes.",
                        discussion: ["With --json each event is one JSON object per line. SIGINT or SIGTERM ends it cleanly with "
                                     + "unavailable presence (exit status 0)."],
                        options: [
                            .flag("auto-approve", help: "Approve every subscription request and subscribe back (for bots)."),
                            OptionSpec("show", value: "SHOW", help: "Presence to show while watching.", default: "online",
                                       completion: .values(show)),
                            OptionSpec("status", value: "TEXT", help: "Status text to show while watching."),
                            OptionSpec("priority", value: "N", help: "Resource priority, -128 to 127 (negative: no messages routed here).",
                                       default: "-1"),
                        ],
                        examples: [Example("xmpp-roster watch --json | jq -c 'select(.event == \"subscription_request\")'", "Print subscription requests as they arrive.")]),
        ],
        exitCodes: CommonSpec.exitCodes,
        environment: CommonSpec.environment,
        files: CommonSpec.files,
        examples: [
            Example("xmpp-roster list", "Show contacts with presence."),
            Example("xmpp-roster list --cached --json | jq -r '.[] | select(.groups | index(\"Work\")) | .jid'",
                    "Print the contacts in group Work, offline, from the cache."),
            Example("xmpp-roster add bob --name 'Bob' --group Friends", "Add bob on your own domain and ask for his presence."),
            Example("xmpp-roster pending --json | jq -r '.[].jid' | xargs -rn1 xmpp-roster approve --add-back",
                    "Accept every waiting request and subscribe back."),
            Example("xmpp-roster export -a old@example.org > roster.json && xmpp-roster import roster.json -a new@example.net",
                    "Move a roster to another account with names and groups."),
            Example("xmpp-roster watch --json --auto-approve | jq -c 'select(.event == \"presence\")'",
                    "Run as a bot that accepts everyone, logging presence changes."),
        ],
        seeAlso: ["xmpp-login(1)", "xmpp-vcard(1)", "xmpp-tools(7)"]
    )
}
