import Arguments
import XMPPStanzas

/// The command line of `xmpp-vcard`.
public enum VCardSpec {
    /// Field names `--field` accepts: the vCard fields plus the photo's details.
    static let printableFields = VCardField.allCases.map(\.rawValue) + ["photo_type", "photo_size", "photo_url"]

    /// The declaration that drives parsing, help, man page and completions.
    public static let spec = ToolSpec(
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
        version: CommonSpec.version,
        commonOptions: CommonSpec.options,
        subcommands: [getCommand, setCommand, importCommand],
        defaultSubcommand: "get",
        exitCodes: CommonSpec.exitCodes,
        environment: CommonSpec.environment,
        files: CommonSpec.files,
        examples: [
            Example("xmpp-vcard", "Show the account's own vCard."),
            Example("xmpp-vcard get bob@example.org --format vcf > bob.vcf", "Export a contact's card as a vCard 3.0 file."),
            Example("xmpp-vcard get --field email | head -n 1", "Use one field in a script: the first email address."),
            Example("xmpp-vcard set --nickname Ali --email work:alice@example.org --clear note",
                    "Change the nickname and email, remove the note, keep everything else."),
            Example("xmpp-roster list --json | jq -r '.[].jid' | xmpp-vcard get - --json | jq -r .fullname",
                    "Fetch the cards of every contact over one connection."),
            Example("xmpp-vcard import alice.vcf", "Set the card from a vCard 3.0 or 4.0 file."),
        ],
        seeAlso: ["xmpp-login(1)", "xmpp-roster(1)", "xmpp-avatar(1)", "xmpp-tools(7)"]
    )

    static let getCommand = CommandSpec(
        "get", summary: "Show the vCard of the account, or of each JID given.",
        discussion: [
            "A JID without '@' is a user on the account's own domain. '-' reads one JID a line from standard input. "
                + "Several JIDs are fetched over one connection with the requests in flight together; with --json "
                + "(or --format json) they are printed as JSON Lines, one object per JID.",
            "The JSON object of a card has the keys \"jid\", \"source\" (server or cache), \"fetched_at\" (when the "
                + "cached copy was fetched, or null), \"fullname\", \"given\", \"family\", \"middle\", \"prefix\", "
                + "\"suffix\", \"nickname\", \"birthday\", \"org\", \"org_units\" (a list), \"title\", \"role\", "
                + "\"emails\" ([{\"address\", \"types\"}]), \"phones\" ([{\"number\", \"types\"}]), \"addresses\" "
                + "([{\"street\", \"extended\", \"pobox\", \"locality\", \"region\", \"code\", \"country\", \"types\"}]), "
                + "\"url\", \"note\", \"jabber_id\", \"photo\" ({\"type\", \"bytes\", \"sha1\", \"url\"} or null) and "
                + "\"other_fields\" (names of fields kept but not shown). Every JSON Line has every key, and also "
                + "\"error\" and \"exit_code\": null and 0 for a card; for a JID that failed, the reason and its exit "
                + "status, with the keys of an empty card (\"source\" null). With --field a line is {\"jid\", FIELD, "
                + "\"error\", \"exit_code\"}.",
            "A JID without a vCard (Prosody cannot tell that from a JID without an account) is exit status 4; "
                + "the account's own missing card is an empty card. With several JIDs the status is 4 when every "
                + "failure was a missing card, 1 otherwise.",
            "Text output labels each field, a value's line breaks starting indented lines; when standard output is "
                + "not a terminal it is FIELD<TAB>VALUE lines, with backslashes, newlines, carriage returns, tabs and "
                + "escapes in values written as \\\\, \\n, \\r, \\t and \\e. --field prints values the same way. Other "
                + "control characters, and those that reorder text (bidirectional controls), are written as U+XXXX "
                + "in all text output, so a card cannot forge lines or drive the terminal.",
        ],
        options: [
            .flag("cached", help: "Answer from the cache only, without connecting (works offline)."),
            .flag("refresh", help: "Always ask the server; never fall back to the cache."),
            OptionSpec("field", value: "FIELD", help: "Print only this field's value: "
                + printableFields.joined(separator: ", ") + ". Lists print one value a line.",
                       completion: .values(printableFields)),
            OptionSpec("format", value: "FORMAT", help: "text (default), json, or vcf (vCard 3.0).",
                       completion: .values(["text", "json", "vcf"])),
            OptionSpec("photo-out", value: "FILE", help: "Also write the embedded photo's bytes to FILE ('-': to stdout, instead of the card).",
                       completion: .anyFile),
        ],
        positionals: [PositionalSpec("JID", help: "Whose card ('-' reads JIDs from stdin; default: the account's own).",
                                     optional: true, variadic: true, completion: .custom("vcards"))],
        examples: [
            Example("xmpp-vcard get alice --json | jq .emails", "Show a local user's email addresses."),
            Example("xmpp-vcard get --photo-out me.png --field photo_type", "Save one's own photo and print its type."),
            Example("xmpp-vcard get --cached bob@example.org", "Show the card from the cache, offline."),
        ]
    )

    static let setCommand = CommandSpec(
        "set", summary: "Change fields of the account's own vCard, keeping every other field.",
        discussion: [
            "The card is fetched, changed and published whole, so fields not named keep their values (including "
                + "fields xmpp-vcard does not know). Giving --email, --phone, --address or --org-unit replaces that "
                + "list with the values given; repeat the option for several values.",
            "--email and --phone take an optional type prefix, TYPE[,TYPE…]:VALUE, e.g. work:alice@example.org or "
                + "cell,voice:+1 555 0100. Email types: home, work, internet, pref, x400. Phone types: home, work, "
                + "voice, fax, pager, msg, cell, video, bbs, modem, isdn, pcs, pref.",
            "--address takes [TYPE[,TYPE…]:]STREET;LOCALITY;REGION;CODE;COUNTRY[;EXTENDED[;POBOX]]: parts may be "
                + "empty or left off at the end, '\\;' is a literal semicolon, and a leading ':' means no types (for a "
                + "street containing ':'). Address types: home, work, postal, parcel, dom, intl, pref. Example: "
                + "'home:1 Main St;Springfield;IL;62701;USA'.",
            "--photo embeds a PNG, JPEG, GIF or WebP image of at most 128 KiB. --clear FIELD removes a field: "
                + VCardField.allCases.map(\.rawValue).joined(separator: ", ") + ".",
        ],
        options: [
            OptionSpec("fullname", value: "TEXT", help: "Full name (FN)."),
            OptionSpec("given", value: "TEXT", help: "Given name."),
            OptionSpec("family", value: "TEXT", help: "Family name."),
            OptionSpec("middle", value: "TEXT", help: "Middle name."),
            OptionSpec("prefix", value: "TEXT", help: "Honorific prefix, e.g. Dr."),
            OptionSpec("suffix", value: "TEXT", help: "Honorific suffix, e.g. Jr."),
            OptionSpec("nickname", value: "TEXT", help: "Nickname."),
            OptionSpec("birthday", value: "YYYY-MM-DD", help: "Birthday, a valid date."),
            OptionSpec("org", value: "TEXT", help: "Organisation name."),
            OptionSpec("org-unit", value: "TEXT", help: "Organisational unit; replaces the units.", repeatable: true),
            OptionSpec("title", value: "TEXT", help: "Job title."),
            OptionSpec("role", value: "TEXT", help: "Role."),
            OptionSpec("email", value: "[TYPES:]ADDRESS", help: "Email address; replaces the emails.", repeatable: true),
            OptionSpec("phone", value: "[TYPES:]NUMBER", help: "Phone number; replaces the phones.", repeatable: true),
            OptionSpec("address", value: "[TYPES:]STREET;LOCALITY;REGION;CODE;COUNTRY",
                       help: "Postal address; replaces the addresses (syntax above).", repeatable: true),
            OptionSpec("url", value: "URL", help: "Web page."),
            OptionSpec("note", value: "TEXT", help: "Free text; may span several lines."),
            OptionSpec("jabber-id", value: "JID", help: "The XMPP address shown on the card (JABBERID)."),
            OptionSpec("photo", value: "FILE", help: "Embed this image as the photo.",
                       completion: .file(extensions: ["png", "jpg", "jpeg", "gif", "webp"])),
            OptionSpec("clear", value: "FIELD", help: "Remove a field.", repeatable: true,
                       completion: .values(VCardField.allCases.map(\.rawValue))),
        ],
        examples: [
            Example("xmpp-vcard set --fullname 'Alice Liddell' --given Alice --family Liddell",
                    "Set the name, keeping the other fields."),
            Example("xmpp-vcard set --note \"$(cat about.txt)\" --photo me.png", "Set a multi-line note and a photo."),
            Example("xmpp-vcard set --clear phone --clear address", "Remove all phone numbers and addresses."),
        ]
    )

    static let importCommand = CommandSpec(
        "import", summary: "Replace the account's own vCard with a .vcf file (vCard 3.0 or 4.0).",
        discussion: [
            "The file must hold exactly one vCard. A malformed file is exit status 9 with the line named. Every "
                + "field is replaced, except that a file without PHOTO keeps the current photo (clear it with "
                + "'xmpp-vcard set --clear photo'). 'xmpp-vcard get --format vcf' writes files this command reads.",
        ],
        positionals: [PositionalSpec("FILE", help: "The .vcf file, or '-' for standard input.",
                                     completion: .file(extensions: ["vcf", "vcard"]))],
        examples: [
            Example("xmpp-vcard get --format vcf -a old@example.org | xmpp-vcard import - -a new@example.org",
                    "Copy a card from one account to another."),
        ]
    )
}
