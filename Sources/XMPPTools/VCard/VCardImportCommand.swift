import Arguments
import XMLTree
import XMPPServices
import XMPPStanzas

extension VCardTool {
    /// `xmpp-vcard import FILE.vcf|-`: replaces the card with a file's (keeping the photo when the file has none).
    struct Import: ToolCommand {
        static let file = PositionalSpec("FILE", help: "The .vcf file, or '-' for standard input.",
                                         completion: .file(extensions: ["vcf", "vcard"]))

        static let spec = CommandSpec(
            "import", summary: "Replace the account's own vCard with a .vcf file (vCard 3.0 or 4.0).",
            discussion: [
                "The file must hold exactly one vCard. A file whose structure is broken is exit status 9 with the line "
                    + "named, and nothing is sent: larger than 8 MiB, not UTF-8, without BEGIN:VCARD, END:VCARD or a "
                    + "VERSION of 2.1, 3.0 or 4.0, with a BEGIN or END other than VCARD inside the card (BEGIN:VCALENDAR), "
                    + "a BEGIN, END or VERSION line holding a control character or parameters that cannot be read, a line "
                    + "that is not NAME:VALUE, or a continuation line with no line before it. Every "
                    + "field is replaced, except that a file without PHOTO, or whose PHOTO was left out, keeps the current photo (clear it with "
                    + "'xmpp-vcard set --clear photo'). 'xmpp-vcard get --format vcf' writes files this command reads. "
                    + "The card goes to all three profile stores as 'xmpp-vcard set' writes them (vcard-temp, the vCard4 "
                    + "node with its unmapped properties kept, the nickname node; PEP access presence), and the report "
                    + "has the same \"stores\" list. A vCard 4.0 file goes to the vCard4 node natively: every property "
                    + "(GENDER, ANNIVERSARY, LANG, GEO, X-…, the other forms of an ALTID) as RFC 6351 xCard, replacing "
                    + "the node's content, but the PHOTO, which goes to vcard-temp and the avatar as from a 3.0 file; "
                    + "vcard-temp and the nickname get the fields they map. Property groups (item1.) are dropped.",
                "vCard 3.0 and 4.0 are read, and the 2.1 that phones and desktop programs still export: quoted-printable "
                    + "values (with soft line breaks) in UTF-8, or in ISO-8859-1 or Windows-1252 (both read as "
                    + "Windows-1252, whose curly quotes and euro sign Outlook writes under either name), bare TYPE words "
                    + "(TEL;CELL), BASE64 photos.",
                "XEP-0054's structured fields are read into its structure: GEO (LAT and LON; 3.0 'lat;lon' or a 4.0 "
                    + "geo: URI), LABEL (its type flags and one LINE a line), KEY (TYPE and CRED), LOGO (like PHOTO), "
                    + "SOUND (PHONETIC, BINVAL or EXTVAL), AGENT (an embedded vCard or a URI) and CLASS (PUBLIC, PRIVATE "
                    + "or CONFIDENTIAL). A repeated property (a second TITLE, N or ORG) is kept as a second element, "
                    + "which vcard-temp allows.",
                "A property the card cannot use costs that property, not the card: it is left out with a warning "
                    + "naming its line, its value and why. Left out are PRODID and REV (they name the program and time "
                    + "that wrote the file, not the person); a property whose name vCard does not allow (a vendor's "
                    + "OPPO_RECENT_CALL) or that cannot start an XML element; the other forms of a value sharing one "
                    + "ALTID (RFC 6350 §5.4: the same value in another language or script; the first is kept); a "
                    + "property whose parameters cannot be read (an unterminated quote, an invalid parameter name); a "
                    + "quoted-printable value with an '=' not followed by two hex digits, not valid in its CHARSET, or in "
                    + "a CHARSET not read; a value of nothing but control characters; a BDAY that is no calendar date "
                    + "(1980-02-30); a PHOTO, LOGO, SOUND or KEY whose Base64 or data: URI is not valid; a GEO that is "
                    + "not a latitude and a longitude; an AGENT whose vCard cannot be read, holds more than one vCard or "
                    + "nests deeper than 3 AGENTs, or that is neither a vCard nor a URI. Of a 4.0 file, the vCard4 node "
                    + "keeps the other ALTID forms and the structured fields vcard-temp left out, and the warning says so.",
                "A PHOTO or LOGO whose Base64 was cut short (its length not a multiple of 4: the padding or the last "
                    + "group lost, as BlackBerry and Android exports have it) is kept, its Base64 completed, when the "
                    + "PNG, JPEG or WebP image decodes whole from what is there (every byte to the image's end marker, "
                    + "every row), and is left out otherwise (another format cannot be checked and is left out); the "
                    + "warning says which. A cut-short SOUND is left out. A control character (C0 but tab, DEL or C1: a "
                    + "form feed in an Outlook FBURL, raw or quoted-printable) never reaches the server or the terminal: it is taken out of the "
                    + "property, which is kept, with a warning naming the line and the character; a line of nothing but "
                    + "control characters is dropped with a warning. Within a kept property, a TYPE word that is no XML "
                    + "name or names a part of its entry (TEL;TYPE=number) and a photo media type that is none are "
                    + "dropped.",
                "What the file loses is warned about with its value and, with --json, listed in dropped_fields and in "
                    + "dropped with \"by\": \"input\" (\"by\": \"server\" for what the server did not keep). The exit "
                    + "status is 0 with these warnings as long as the card's name (FN or N) was kept; a file whose every "
                    + "FN and N was left out is exit status 9, and nothing is sent.",
            ],
            options: PasswordSource.declarations, positionals: [file],
            examples: [
                Example("xmpp-vcard get --format vcf -a old@example.org | xmpp-vcard import - -a new@example.org",
                        "Copy a card from one account to another."),
            ])

        let context: AccountContext
        let path: String

        init(_ invocation: Invocation) {
            context = invocation.passwordContext
            path = invocation.command.argument(Self.file.name) ?? "-"
        }

        func run() throws {
            let name = path == "-" ? "standard input" : path
            if path == "-" { try context.passwordForRun?.refuseStandardInput(sharedWith: "the vCard") }
            let bytes = try InputFile.read(path, limit: VCFReader.maxBytes, what: "the vCard file")
            let entries: [VCFReader.Entry]
            switch Self.read(bytes) {
            case .success(let e): entries = e
            case .failure(let error): throw ToolFailure(.badInput, "\(name): \(error)")
            }
            guard entries.count == 1 else {
                throw ToolFailure(.badInput, "\(name) holds \(entries.count) vCards (lines \(entries.map { String($0.line) }.joined(separator: ", "))); "
                    + "import takes one")
            }
            let imported = entries[0].card
            for warning in entries[0].warnings { context.environment.warn("\(name): \(warning)") }
            // Left-out properties cost only themselves, but not the person's name: the account's would go.
            guard !entries[0].identityLeftOut else {
                throw ToolFailure(.badInput, "\(name): the card's name (FN and N) was left out (see the warnings above); nothing was imported")
            }
            try ProfilePublisher(context: context).run(stores: ProfileStore.allCases, access: .presence, imported: true,
                                                       skipped: entries[0].dropped, vcard4: Self.nativeVCard4(entries[0])) { current in
                var card = imported
                if card.photo == nil { card.photo = current.photo }
                return card
            }
        }

        /// A 4.0 file's properties as the vCard4 node's content, all of them (GENDER, X-…), not
        /// only those the vcard-temp fields map. PHOTO stays with vcard-temp and the avatar
        /// nodes; a file without one keeps the node's current photo, as vcard-temp does.
        static func nativeVCard4(_ entry: VCFReader.Entry) -> ((VCard4) -> VCard4)? {
            guard let xcard = entry.xcard, let native = try? VCard4(element: xcard) else { return nil }
            let isPhoto = { (e: XMLElement) in e.name == "photo" }
            let hasPhoto = native.extras.contains(where: isPhoto)
            return { current in
                VCard4(fields: native.fields, extras: native.extras.filter { !isPhoto($0) } + (hasPhoto ? [] : current.extras.filter(isPhoto)))
            }
        }

        private static func read(_ bytes: [UInt8]) -> Result<[VCFReader.Entry], VCFError> {
            do { return .success(try VCFReader.read(bytes, wholeImage: VCardPhotoFile.isWhole)) } catch { return .failure(error) }
        }
    }
}
