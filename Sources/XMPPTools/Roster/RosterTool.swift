import Arguments

/// `xmpp-roster`: its page-level declaration and its subcommands.
public enum RosterTool {
    static let tool = Tool(
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
            "To learn presence, list probes the contacts whose presence you may see without sending presence of "
                + "its own (on a server that drops clients' probes it goes online for a moment with priority -1); "
                + "to collect subscription requests, pending goes online for a moment with a negative priority, so "
                + "no message meant for your real clients is routed to it. Both wait for the server's answers "
                + "behind a ping; contacts that have not answered by then get a little longer (until 0.3 s pass "
                + "without news, 2 s at most), since some servers answer probes late.",
            "In text output, names, groups, nicknames and status messages (which others choose) have their control "
                + "characters escaped, as xmpp-tools(7) describes, so each contact or event stays one line.",
        ],
        commands: [List.self, Add.self, Remove.self, Rename.self, Group.self, Pending.self, Approve.self, Deny.self,
                   Groups.self, Export.self, Import.self, Watch.self],
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

    /// The contact argument of add, remove, rename, group and deny.
    static let contact = PositionalSpec("JID", help: "The contact; a name without '@' means that name on the account's domain.",
                                        completion: .contacts)

    /// The declaration that drives parsing, help, man page and completions.
    public static var spec: ToolSpec { tool.spec }

    /// Runs the tool.
    public static func main() -> Never { tool.main() }
}
