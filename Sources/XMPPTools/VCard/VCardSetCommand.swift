import Arguments
import XMPPStanzas

extension VCardTool {
    /// `xmpp-vcard set`: merges the options into the account's current card.
    struct Set: ToolCommand {
        static let fullname = Option<String>("fullname", value: "TEXT", help: "Full name (FN).")
        static let given = Option<String>("given", value: "TEXT", help: "Given name.")
        static let family = Option<String>("family", value: "TEXT", help: "Family name.")
        static let middle = Option<String>("middle", value: "TEXT", help: "Middle name.")
        static let prefix = Option<String>("prefix", value: "TEXT", help: "Honorific prefix, e.g. Dr.")
        static let suffix = Option<String>("suffix", value: "TEXT", help: "Honorific suffix, e.g. Jr.")
        static let nickname = Option<String>("nickname", value: "TEXT", help: "Nickname.")
        static let birthday = Option<String>("birthday", value: "YYYY-MM-DD", help: "Birthday, a valid date.")
        static let org = Option<String>("org", value: "TEXT", help: "Organisation name.")
        static let orgUnit = Option<String>("org-unit", value: "TEXT", help: "Organisational unit; replaces the units.", repeatable: true)
        static let title = Option<String>("title", value: "TEXT", help: "Job title.")
        static let role = Option<String>("role", value: "TEXT", help: "Role.")
        static let email = Option<String>("email", value: "[TYPES:]ADDRESS", help: "Email address; replaces the emails.", repeatable: true)
        static let phone = Option<String>("phone", value: "[TYPES:]NUMBER", help: "Phone number; replaces the phones.", repeatable: true)
        static let address = Option<String>("address", value: "[TYPES:]STREET;LOCALITY;REGION;CODE;COUNTRY",
                                            help: "Postal address; replaces the addresses (syntax above).", repeatable: true)
        static let url = Option<String>("url", value: "URL", help: "Web page.")
        static let note = Option<String>("note", value: "TEXT", help: "Free text; may span several lines.")
        static let jabberID = Option<String>("jabber-id", value: "JID", help: "The XMPP address shown on the card (JABBERID).")
        static let photo = Option<String>("photo", value: "FILE", help: "Embed this image as the photo.",
                                          completion: .file(extensions: ["png", "jpg", "jpeg", "gif", "webp"]))
        /// A repeatable choice (`Option.choice` takes one value): the parser refuses other names.
        static let clear = Option<VCardField>(
            spec: OptionSpec("clear", value: "FIELD", help: "Remove a field.", repeatable: true,
                             completion: .values(VCardField.allCases.map(\.rawValue))),
            expected: "one of " + VCardField.allCases.map(\.rawValue).joined(separator: ", "),
            convert: { VCardField(rawValue: $0) })

        /// The options that set one field each, and that field, in the order they are read.
        static let scalarOptions: [(Option<String>, VCardField)] = [
            (fullname, .fullname), (given, .given), (family, .family), (middle, .middle), (prefix, .prefix),
            (suffix, .suffix), (nickname, .nickname), (birthday, .birthday), (org, .org), (title, .title),
            (role, .role), (url, .url), (note, .note), (jabberID, .jabberID),
        ]

        static let spec = CommandSpec(
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
                fullname, given, family, middle, prefix, suffix, nickname, birthday, org, orgUnit, title, role,
                email, phone, address, url, note, jabberID, photo, clear,
            ] + PasswordSource.declarations,
            examples: [
                Example("xmpp-vcard set --fullname 'Alice Liddell' --given Alice --family Liddell",
                        "Set the name, keeping the other fields."),
                Example("xmpp-vcard set --note \"$(cat about.txt)\" --photo me.png", "Set a multi-line note and a photo."),
                Example("xmpp-vcard set --clear phone --clear address", "Remove all phone numbers and addresses."),
            ])

        let context: AccountContext
        let requested: VCardEdits.Requested

        init(_ invocation: Invocation) throws {
            let command = invocation.command
            context = invocation.passwordContext
            var requested = VCardEdits.Requested()
            for (option, field) in Self.scalarOptions {
                if let value = try command.value(option) { requested.scalars.append((field, value)) }
            }
            requested.orgUnits = try command.values(Self.orgUnit)
            requested.emails = try command.values(Self.email)
            requested.phones = try command.values(Self.phone)
            requested.addresses = try command.values(Self.address)
            requested.photo = try command.value(Self.photo)
            requested.clears = try command.values(Self.clear)
            self.requested = requested
        }

        func run() throws {
            let edits = try VCardEdits.parse(requested, loadPhoto: VCardPhotoFile.load)
            guard !edits.isEmpty else {
                throw ToolFailure(.usage, "nothing to change: give a field option such as --nickname, or --clear FIELD")
            }
            try VCardPublisher(context: context).run(status: "updated", force: false) { current in
                var card = current
                edits.apply(to: &card)
                return card
            }
        }
    }
}
