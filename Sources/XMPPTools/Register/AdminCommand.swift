import TextFormats
import XMPPServices
import XMPPStanzas

/// One XEP-0133 command for one account, run with the administrator's cached session (the
/// active account or `-a`): what `xmpp-register … --admin` does in place of in-band requests.
enum AdminCommand {
    /// Runs `command` for `account`; the account existing (add-user) is exit 5, its absence
    /// (the others) exit 4, an account that is not an administrator exit 12.
    static func perform(_ command: ServiceAdministration.Command, account: JID, password: String? = nil,
                        context: AccountContext) throws {
        let (connection, admin) = try context.connectWithSession()
        defer { connection.close() }
        let outcome: AdminService.Outcome
        do {
            outcome = try AdminService.perform(command, account: account, password: password, on: connection)
        } catch {
            if case .forbidden = error {
                throw ToolFailure(.notPermitted, "\(admin) may not run \(command.rawValue) on \(account.domain): it is not an administrator of that server")
            }
            if case .notOffered = error {
                // Prosody 0.12's mod_admin_adhoc and ejabberd's mod_configure (23.01, 24.12) list no disable-user or reenable-user.
                let hint = command == .disableUser || command == .reenableUser
                    ? "Prosody 13's mod_admin_adhoc has it; Prosody 0.12 and ejabberd do not"
                    : "Prosody: mod_admin_adhoc; ejabberd: mod_configure and mod_adhoc"
                throw ToolFailure(.notFound, "\(account.domain) does not offer the administration command \(command.rawValue) to \(admin)"
                                  + " (\(hint))")
            }
            throw ErrorMapping.failure(for: error)
        }
        switch outcome {
        case .done: return
        case .exists: throw ToolFailure(.conflict, "the account \(account) already exists")
        case .noSuchAccount: throw ToolFailure(.notFound, "no such account: \(account)")
        }
    }

    /// `xmpp-register disable|enable JID`: runs `command` for the account `target` names and
    /// prints it with `status` ("disabled", "enabled"), as text or `--json`.
    static func performAndReport(_ command: ServiceAdministration.Command, target: String, status: String,
                                 context: AccountContext) throws {
        let jid = try PasswordLogin.accountJID(target)
        try perform(command, account: jid, context: context)
        if context.common.json {
            Output.line(JSONValue.object([("jid", .string(jid.description)), ("status", .string(status))]).pretty)
        } else if !context.common.quiet {
            Output.line("\(status.prefix(1).uppercased() + status.dropFirst()) \(jid).")
        }
    }
}
