import Arguments
import XMPPServices
import XMPPStanzas

extension RegisterTool {
    /// `xmpp-register form DOMAIN`: shows what `DOMAIN` asks for to register, without an account.
    struct Form: ToolCommand {
        static let domain = PositionalSpec("DOMAIN", help: "The server's domain.")

        static let spec = CommandSpec(
            "form", summary: "Show the fields a server asks for before it creates an account.",
            discussion: ["Needs no account: it connects, reads the registration form and leaves."],
            positionals: [domain],
            examples: [
                Example("xmpp-register form example.org --json | jq -r '.fields[].name'",
                        "List the names of the fields example.org asks for."),
            ])

        let context: AccountContext
        let domainText: String

        init(_ invocation: Invocation) {
            context = invocation.context
            domainText = invocation.command.argument(Self.domain.name) ?? ""
        }

        func run() throws {
            let domain: String
            do { domain = try JID(domainText).domain } catch { throw ToolFailure(.badInput, "invalid domain '\(JID.printable(domainText))': \(error)") }
            let settings = try context.settings(for: try JID(domain), stored: nil)
            let connection = try context.open(domain: domain, settings: settings)
            defer { connection.close() }
            let form: RegistrationForm
            do { form = try RegistrationService.form(on: connection) } catch { throw ErrorMapping.failure(for: error) }
            RegistrationFormOutput.print(form, domain: domain, advertised: connection.features.registration, json: context.common.json)
        }
    }
}
