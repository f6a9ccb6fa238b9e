import Arguments
import TextFormats
import XMPPServices

extension RegisterTool {
    /// `xmpp-register passwd`: changes the logged-in account's password and refreshes its cached session.
    struct Passwd: ToolCommand {
        static let spec = CommandSpec(
            "passwd", summary: "Change the password of the account and refresh its cached session.",
            discussion: ["Sessions of the account cached elsewhere stop working: log in there again."],
            options: PasswordSource.declarations,
            examples: [
                Example("printf '%s\\n' \"$NEWPW\" | xmpp-register passwd --password-stdin",
                        "Change the password of the active account from a script."),
            ])

        let context: AccountContext
        let password: PasswordSource

        init(_ invocation: Invocation) {
            context = invocation.context
            password = invocation.password
        }

        func run() throws {
            let env = context.environment
            let (connection, jid) = try context.connectWithSession()
            let secret = try password.read(prompt: "New password for \(jid): ", confirm: true)
            do {
                try RegistrationService.changePassword(on: connection, username: jid.local ?? "", newPassword: secret)
            } catch {
                connection.close()
                throw ErrorMapping.failure(for: error)
            }
            connection.close()
            // The server salted the new password afresh: derive the new keys by logging in once.
            let settings = try context.settings(for: jid, stored: try env.accounts.load().accounts[jid.description])
            let result = try PasswordLogin.authenticate(context: context, jid: jid, settings: settings, password: secret)
            let wasActive = try env.accounts.load().active == jid.description
            try PasswordLogin.saveSession(env: env, jid: jid, settings: settings, result: result, makeActive: wasActive)
            if context.common.json {
                Output.line(JSONValue.object([("jid", .string(jid.description)), ("status", .string("password_changed")),
                                              ("session_refreshed", .bool(true))]).pretty)
            } else if !context.common.quiet {
                Output.line("Password of \(jid) changed; the cached session is refreshed.")
            }
        }
    }
}
