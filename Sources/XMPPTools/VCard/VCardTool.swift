import Arguments

/// `xmpp-vcard`: its page-level declaration and its subcommands.
public enum VCardTool {
    static let tool = Tool(
        name: "xmpp-vcard",
        summary: "read, edit, import and export vCards (XEP-0054)",
        description: [
            "xmpp-vcard reads the vcard-temp vCard (XEP-0054) of the account or of other JIDs, changes fields of "
                + "the account's own card without touching the others, and imports or exports vCard files "
                + "(reads vCard 3.0 and 4.0, writes 3.0).",
            "Fetched cards are kept in the cache. By default the server is asked and the cache is used only when "
                + "the server cannot be reached, with a note on stderr; --cached answers from the cache alone, "
                + "--refresh never falls back to it.",
            "After set and import the card is fetched again and every field the server did not keep is named on "
                + "stderr (and in dropped_fields with --json): Prosody's vcard_legacy, for one, drops organisation "
                + "units, email PREF, phone types other than home/work, address types other than home/work, and "
                + "unknown fields.",
            "With no subcommand word, the arguments are JIDs to get.",
        ],
        commands: [Get.self, Set.self, Import.self],
        defaultCommand: Get.self,
        examples: [
            Example("xmpp-vcard", "Show the account's own vCard."),
            Example("xmpp-vcard get bob@example.org --format vcf > bob.vcf", "Export a contact's card as a vCard 3.0 file."),
            Example("xmpp-vcard get --format vcf4 > me.vcf", "Export one's own profile as vCard 4.0, vCard4 properties included."),
            Example("xmpp-vcard get --field email | head -n 1", "Use one field in a script: the first email address."),
            Example("xmpp-vcard set --nickname Ali --email work:alice@example.org --clear note",
                    "Change the nickname and email, remove the note, keep everything else."),
            Example("xmpp-roster list --json | jq -r '.[].jid' | xmpp-vcard get - --json | jq -r .fullname",
                    "Fetch the cards of every contact over one connection."),
            Example("xmpp-vcard import alice.vcf", "Set the card from a vCard 3.0 or 4.0 file."),
        ],
        seeAlso: ["xmpp-login(1)", "xmpp-roster(1)", "xmpp-avatar(1)", "xmpp-tools(7)"]
    )

    /// The declaration that drives parsing, help, man page and completions.
    public static var spec: ToolSpec { tool.spec }

    /// Runs the tool.
    public static func main() -> Never { tool.main() }
}
