import Arguments
import TextFormats
import XMPPBatch
import XMPPServices

extension RegisterTool {
    /// `xmpp-register delete --yes`: deletes the logged-in account from the server and forgets its session.
    struct Delete: ToolCommand {
        static let yes = Flag("yes", help: "Confirm: deleting cannot be undone.")
        static let account = PositionalSpec("JID", help: "With --admin: the account the administrator deletes.", optional: true)
        static let admin = Flag("admin", help: "Delete JID as the server's administrator (XEP-0133 delete-user).")

        static let spec = CommandSpec(
            "delete", summary: "Delete the account from the server and forget its session.",
            discussion: ["Without --yes nothing is deleted (exit status 2).",
                         "With --admin JID, the administrator logged in (the active account, or -a ADMIN) deletes the "
                         + "account JID with the server's delete-user command, without its password; a session of "
                         + "JID cached here is forgotten too. Deleting an account that does not exist succeeds with "
                         + "a note, like rm -f (a batch reports it 'deleted', note 'no such account'). An account xmpp-register sync manages is "
                         + "remembered as deleted, so that a sync whose file still lists it says so and creates it again "
                         + "with a new password. A password given for "
                         + "the run (--password-file, --password-stdin, XMPP_PASSWORD) is the logged-in account's: "
                         + "the administrator's with --admin."],
            options: [yes, admin] + PasswordSource.declarations,
            positionals: [account],
            examples: [
                Example("xmpp-register delete --yes -a old@example.org", "Delete old@example.org."),
                Example("xmpp-register delete leaver@example.org --admin --yes", "Delete another account as the administrator."),
            ])

        let context: AccountContext
        let confirmed: Bool
        let target: String?
        let asAdmin: Bool

        init(_ invocation: Invocation) throws {
            context = invocation.passwordContext
            confirmed = invocation.command[Self.yes]
            target = invocation.command.argument(Self.account.name)
            asAdmin = invocation.command[Self.admin]
            if asAdmin != (target != nil) {
                throw ToolFailure(.usage, asAdmin ? "--admin needs the JID to delete"
                                  : "a JID is for --admin; without it, delete removes the logged-in account (-a JID names it)")
            }
        }

        func run() throws {
            let env = context.environment
            let jid = try target.map { t throws in try PasswordLogin.accountJID(t) } ?? context.accountJID()
            guard confirmed else {
                throw ToolFailure(.usage, "refusing to delete \(jid) without --yes (this cannot be undone)")
            }
            if asAdmin {
                var note: String?
                do { try AdminCommand.perform(.deleteUser, account: jid, context: context) } catch let f as ToolFailure where f.code == .notFound && f.message.hasPrefix("no such account") {
                    note = "no such account"
                }
                if try env.sessions.load(jid) != nil { try env.sessions.remove(jid) }
                // An account sync manages is remembered as deleted: a row that still lists it is
                // planned as a re-creation with a new password, never silently with the old one.
                try SyncState.noteDeletedOutside(jid, how: "by xmpp-register delete --admin on \(SyncClock.today())",
                                                 stateDirectory: env.paths.state)
                if context.common.json {
                    Output.line(JSONValue.object([("jid", .string(jid.description)), ("status", .string("deleted")),
                                                  ("note", .optional(note))]).pretty)
                } else if !context.common.quiet {
                    Output.line("Deleted \(jid)" + (note.map { " (\($0))" } ?? "") + ".")
                }
                return
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
