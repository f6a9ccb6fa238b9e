import Arguments
import TextFormats
import XMPPServices
import XMPPStanzas

extension RosterTool {
    /// `xmpp-roster export`: the synced roster as JSON (as `list --json` prints it, without
    /// presence) or CSV, for `import`, or as vCard 4.0 cards for an address book.
    struct Export: ToolCommand {
        /// What --format writes.
        enum Format: String, CaseIterable, Sendable {
            case json, csv, vcf
        }

        static let format = Option<Format>.choice("format", value: "FORMAT", help: "json (default), csv, or vcf (vCard 4.0 cards for an address book).", default: .json)

        static let spec = CommandSpec(
            "export", summary: "Print the roster (JID, name, groups, subscription) as JSON, CSV or vCard.",
            discussion: [
                "json and csv hold every field of each contact and are what xmpp-roster import reads back. vcf is "
                    + "for address books and phones: one vCard 4.0 (RFC 6350) per contact, with FN (its roster name, "
                    + "or its JID when it has none), IMPP with its xmpp: URI (RFC 5122: the JID's characters that a "
                    + "URI cannot hold, such as non-ASCII letters, ', &, %, ? and spaces, percent-encoded as UTF-8), "
                    + "CATEGORIES with its roster groups and KIND:individual; names and groups are escaped as vCard "
                    + "text (a backslash, comma or semicolon gets a backslash before it, a line break becomes \\n), lines are folded at 75 octets and end in CRLF. The subscription "
                    + "is not in the cards, and import does not read them.",
            ],
            options: [format] + PasswordSource.declarations,
            examples: [Example("xmpp-roster export --format csv > roster.csv", "Save the roster for a spreadsheet."),
                       Example("xmpp-roster export --format vcf > contacts.vcf", "Cards for an address book, each with its XMPP address.")])

        let context: AccountContext
        let format: Format

        init(_ invocation: Invocation) throws {
            context = invocation.passwordContext
            do { format = try invocation.command.value(Self.format) ?? .json } catch {
                throw ToolFailure(.usage, error.reason.description)
            }
        }

        func run() throws {
            let session = try RosterSession.open(context)
            defer { session.close() }
            try session.sync()
            let items = session.takeItems()
            switch format {
            case .csv: Output.out(RosterFile.csv(items))
            case .vcf: Output.out(RosterVCF.write(items))
            case .json: Output.line(JSONValue.array(items.map { RosterOutput.json($0, presence: nil) }).pretty)
            }
        }
    }
}
