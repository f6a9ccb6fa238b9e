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

        static let store = Option<VCardStoreChoice>.choice(
            "store", value: "STORE", help: "Write only this store: vcard-temp, vcard4, nick, or all (the default).")
        static let access = Option<PEPAccess>.choice(
            "access", value: "MODEL", help: "Who may read the vCard4 and nickname nodes: open, presence (the default) or roster.")

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
                "By default the change goes to all three profile stores (see get): the stores are merged, the change "
                    + "applied, and the result written to vcard-temp, to the vCard4 PEP node (XEP-0292; properties "
                    + "xmpp-vcard does not map, such as GENDER or TZ, are kept as they were; the photo is not copied "
                    + "there) and, as the nickname, to the nickname PEP node (XEP-0172; an empty node when the "
                    + "nickname is cleared). --store writes one store only, from that store's own content; --store "
                    + "nick takes only --nickname. --access sets the PEP nodes' access model (pubsub#access_model): "
                    + "presence (contacts with a presence subscription; the default), open (anyone) or roster.",
                "vcard-temp is written first, then each store is read back. Prosody's mod_vcard_legacy (XEP-0398) "
                    + "makes the vCard4 node from a vcard-temp set, dropping what its conversion lacks (org units, "
                    + "most type flags, unmapped vCard4 properties), and makes vcard-temp from the vCard4 node on "
                    + "every read, so there vcard-temp follows the vCard4 node's access model. Where the node the "
                    + "server made is what was wanted it is not published again (only its access model is set); where "
                    + "it differs, the full vCard4 is published after it, so nothing races and the fuller copy stays. "
                    + "ejabberd keeps the three stores apart; each is published. A PHOTO set on Prosody also becomes "
                    + "its XEP-0084 avatar; ejabberd leaves the avatar to xmpp-avatar.",
                "The report names the stores that took the change (--json: \"stores\", one {\"store\", \"status\" "
                    + "(updated, unchanged, unavailable, failed), \"changed_fields\", \"dropped_fields\", "
                    + "\"made_by_server\", \"reason\"} each). A field no store kept is a warning; one that only "
                    + "some stores kept is a note naming them. A PEP store the server lacks (no PEP) is a warning, not "
                    + "a failure, unless it is the one --store names (exit status 8).",
            ],
            options: [
                fullname, given, family, middle, prefix, suffix, nickname, birthday, org, orgUnit, title, role,
                email, phone, address, url, note, jabberID, photo, clear, store, access,
            ] + PasswordSource.declarations,
            examples: [
                Example("xmpp-vcard set --fullname 'Alice Liddell' --given Alice --family Liddell",
                        "Set the name, keeping the other fields."),
                Example("xmpp-vcard set --note \"$(cat about.txt)\" --photo me.png", "Set a multi-line note and a photo."),
                Example("xmpp-vcard set --clear phone --clear address", "Remove all phone numbers and addresses."),
                Example("xmpp-vcard set --nickname Ally --access open --json | jq .stores",
                        "Set the nickname everywhere, readable by anyone, and show which store took it."),
            ])

        let context: AccountContext
        let requested: VCardEdits.Requested
        let store: VCardStoreChoice
        let access: PEPAccess

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
            store = try command.value(Self.store) ?? .all
            access = try command.value(Self.access) ?? .presence
        }

        func run() throws {
            let edits = try VCardEdits.parse(requested, loadPhoto: VCardPhotoFile.load)
            guard !edits.isEmpty else {
                throw ToolFailure(.usage, "nothing to change: give a field option such as --nickname, or --clear FIELD")
            }
            let apply = { (current: VCard) -> VCard in
                var card = current
                edits.apply(to: &card)
                return card
            }
            switch store {
            case .vcardTemp:
                try VCardPublisher(context: context).run(status: "updated", force: false, change: apply)
            case .nick:
                guard edits.onlyNickname else { throw ToolFailure(.usage, "--store nick takes only --nickname (or --clear nickname)") }
                try ProfilePublisher(context: context).run(stores: store.stores, access: access, change: apply)
            case .vcard4:
                if edits.photo != nil { throw ToolFailure(.usage, "--store vcard4 does not take --photo: avatars are vcard-temp's and xmpp-avatar's") }
                try ProfilePublisher(context: context).run(stores: store.stores, access: access, change: apply)
            case .all:
                try ProfilePublisher(context: context).run(stores: store.stores, access: access, change: apply)
            }
        }
    }
}
