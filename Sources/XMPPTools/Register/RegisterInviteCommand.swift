import Arguments
import Handouts
import TextFormats
import XMPPBatch
import XMPPServices
import XMPPStanzas

extension RegisterTool {
    /// `xmpp-register invite [DOMAIN]`: one account invite, made as the administrator, printed
    /// as its URI, and as a QR code when standard output is a terminal.
    struct Invite: ToolCommand {
        static let domain = PositionalSpec("DOMAIN", help: "The server to make the invite on (default: the account's domain).", optional: true)

        static let spec = CommandSpec(
            "invite", summary: "Make an account invite (its QR code on a terminal).",
            discussion: [
                "Runs the server's XEP-0401 create-account command (urn:xmpp:invite#create-account; Prosody's "
                    + "mod_invites_adhoc, which lets administrators run it) as the logged-in account, and prints the "
                    + "invite's xmpp: URI, which Conversations, Monal and Siskin open to make an account with a password "
                    + "the person chooses (or xmpp-register JID --invite URI does). When standard output is a terminal, "
                    + "the URI is preceded by its QR code drawn with UTF-8 half blocks, light modules as blocks, so a phone "
                    + "scans it off the screen of a usual light-on-dark terminal, and followed by the landing page and "
                    + "when it expires where the server says; otherwise the URI alone is printed, for a pipe. --json "
                    + "prints uri, landing_page and expires (null when the server gives none).",
                "The invite is a credential until it is used or expires: it is printed, never stored. For a list of "
                    + "people, batch --invite --report writes one per row and handout prints them as slips. An account that "
                    + "may not run the command is exit status 12; a server without it (ejabberd, or Prosody without "
                    + "mod_invites_adhoc) 4, as for xmpp-adhoc run.",
            ],
            options: [],
            positionals: [domain],
            examples: [
                Example("xmpp-register invite -a admin@school.example", "Show an invite's QR code for someone to scan now."),
                Example("xmpp-register invite school.example | mail -s 'Your XMPP account' pupil@home.example",
                        "Send an invite link by mail."),
            ])

        let context: AccountContext
        let domainText: String?

        init(_ invocation: Invocation) throws {
            context = invocation.context
            domainText = invocation.command.argument(Self.domain.name)
        }

        func run() throws {
            let (connection, jid) = try context.connectWithSession()
            defer { connection.close() }
            let domain = domainText ?? jid.domain
            let server: JID
            do { server = try JID(domain) } catch { throw ToolFailure(.usage, "invalid DOMAIN '\(domain)': \(error)") }
            guard server.local == nil, server.resource == nil else { throw ToolFailure(.usage, "DOMAIN is a server's name, not \(domain)") }
            let answer: AdHocCommand
            do { answer = try AdHocService.run(on: connection, node: AccountInvite.node, at: server, values: [:]).answer } catch {
                throw ErrorMapping.failure(for: error)
            }
            guard let invite = AccountInvite(answer: answer, domain: server.domain) else {
                throw ToolFailure(.failed, "\(domain)'s answer holds no xmpp: invite URI for \(domain)")
            }
            if context.common.json {
                Output.line(JSONValue.object([("uri", .string(invite.uri)), ("landing_page", .optional(invite.landingPage)),
                                              ("expires", .optional(invite.expires))]).pretty)
            } else if Output.stdoutIsTTY {
                Output.out(try Self.terminalText(invite))
            } else {
                Output.line(invite.uri)
            }
        }

        /// The invite for a person at a terminal: its QR code, the URI, the landing page and expiry.
        static func terminalText(_ invite: AccountInvite) throws(ToolFailure) -> String {
            let code: QRCode
            do { code = try QRCode(invite.uri) } catch { throw ToolFailure(.failed, error.description) }
            return code.terminalText() + invite.uri + "\n"
                + (invite.landingPage.map { "Web page: " + $0 + "\n" } ?? "")
                + (invite.expires.map { "Valid until " + $0 + "\n" } ?? "")
        }
    }
}
