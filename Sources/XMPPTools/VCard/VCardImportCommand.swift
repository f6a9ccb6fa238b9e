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
                "The file must hold exactly one vCard. A malformed file is exit status 9 with the line named. Every "
                    + "field is replaced, except that a file without PHOTO keeps the current photo (clear it with "
                    + "'xmpp-vcard set --clear photo'). 'xmpp-vcard get --format vcf' writes files this command reads. "
                    + "The card goes to all three profile stores as 'xmpp-vcard set' writes them (vcard-temp, the vCard4 "
                    + "node with its unmapped properties kept, the nickname node; PEP access presence), and the report "
                    + "has the same \"stores\" list. A vCard 4.0 file goes to the vCard4 node natively: every property "
                    + "(GENDER, ANNIVERSARY, LANG, GEO, X-…, the other forms of an ALTID) as RFC 6351 xCard, replacing "
                    + "the node's content, but the PHOTO, which goes to vcard-temp and the avatar as from a 3.0 file; "
                    + "vcard-temp and the nickname get the fields they map. Property groups (item1.) are dropped.",
                "vCard 3.0 and 4.0 are read, and the 2.1 that phones still export: quoted-printable values (with soft "
                    + "line breaks) in UTF-8 or ISO-8859-1, bare TYPE words (TEL;CELL), BASE64 photos. A vendor property "
                    + "whose name vCard does not allow is dropped with a warning naming its line; a card without VERSION, "
                    + "or a BDAY that is no calendar date (1980-02-30), is an error.",
                "XEP-0054's structured fields are read into its structure: GEO (LAT and LON; 3.0 'lat;lon' or a 4.0 "
                    + "geo: URI), LABEL (its type flags and one LINE a line), KEY (TYPE and CRED), LOGO (like PHOTO), "
                    + "SOUND (PHONETIC, BINVAL or EXTVAL), AGENT (an embedded vCard or a URI) and CLASS (PUBLIC, PRIVATE "
                    + "or CONFIDENTIAL). A repeated property (a second TITLE, N or ORG) is kept as a second element, "
                    + "which vcard-temp allows; properties sharing one ALTID (RFC 6350 §5.4: the same value in another "
                    + "language or script) keep the first and warn about the others. PRODID and REV name the program "
                    + "and time that wrote the file, not the person, and are left out with a warning. What the file "
                    + "loses this way is warned about with its value and, with --json, listed in dropped_fields and in "
                    + "dropped with \"by\": \"input\" (\"by\": \"server\" for what the server did not keep).",
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
            let bytes = try VCardFiles.read(path, limit: VCFReader.maxBytes, what: "the vCard file is")
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
            do { return .success(try VCFReader.read(bytes)) } catch { return .failure(error) }
        }
    }
}
