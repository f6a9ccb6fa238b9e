import Arguments
import TextFormats
import XMPPServices

extension RegisterTool {
    /// `xmpp-register delete --yes`: deletes the logged-in account from the server and forgets its session.
    struct Delete: ToolCommand {
        static let yes = Flag("yes", help: "Confirm: deleting cannot be undone.")

        static let spec = CommandSpec(
            "delete", summary: "Delete the account from the server and forget its session.",
            discussion: ["Without --yes nothing is deleted (exit status 2)."],
            options: [yes] + PasswordSource.declarations,
            examples: [
                Example("xmpp-register delete --yes -a old@example.org", "Delete old@example.org."),
            ])

        let context: AccountContext
        let confirmed: Bool

        init(_ invocation: Invocation) {
            context = invocation.passwordContext
            confirmed = invocation.command[Self.yes]
        }

        func run() throws {
            let env = context.environment
            let jid = try context.accountJID()
            guard confirmed else {
                throw ToolFailure(.usage, "refusing to delete \(jid) without --yes (this cannot be undone)")
            }
            let (connection, _) = try context.connectWithSession()
            do { try RegistrationService.cancel(on: connection) } catch {
                connection.close()
                throw ErrorMapping.failure(for: error)
            }
            connection.close()
            try env.sessions.remove(jid)
            try env.accounts.update { file in
                file.accounts[jid.description] = nil
                if file.active == jid.description { file.active = nil }
            }
            if context.common.json {
                Output.line(JSONValue.object([("jid", .string(jid.description)), ("status", .string("deleted"))]).pretty)
            } else if !context.common.quiet {
                Output.line("Deleted \(jid) from the server and forgot its session.")
            }
        }
    }
}
