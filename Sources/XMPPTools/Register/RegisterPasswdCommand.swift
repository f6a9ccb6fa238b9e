import Arguments
import TextFormats
import XMPPServices

extension RegisterTool {
    /// `xmpp-register passwd`: changes the logged-in account's password and refreshes its cached session.
    struct Passwd: ToolCommand {
        static let account = PositionalSpec("JID", help: "With --admin: the account whose password the administrator sets.", optional: true)
        static let admin = Flag("admin", help: "Set the password of JID as the server's administrator (XEP-0133 change-user-password).")

        static let spec = CommandSpec(
            "passwd", summary: "Change the password of the account and refresh its cached session.",
            discussion: ["What ends when the password changes, as tested on Prosody 13.0.1 and ejabberd 24.12: "
                         + "the session passwd runs from is replaced by a new one; if it was a FAST session, its "
                         + "token, and the one its last rotation replaced, are first invalidated on the server, as "
                         + "xmpp-login logout does (XEP-0484), so no copy of the old session file logs in again. "
                         + "Cached SCRAM keys of the account elsewhere stop working, since the server salts the new "
                         + "password afresh: log in there again. FAST sessions of the account on other machines "
                         + "(each has its own token): Prosody 13 ends every token issued before the change (it "
                         + "compares times to the second); ejabberd 24.12 ends none of them, so run xmpp-login "
                         + "logout there. A "
                         + "password-command session keeps its command, which must then print the new password "
                         + "(session_refreshed is false, and password_command names it, with --json).",
                         "With --admin JID, the administrator logged in (the active account, or -a ADMIN) sets the "
                         + "password of the account JID with the server's change-user-password command, without its "
                         + "old password; no session of JID is refreshed by the tool: its cached SCRAM keys stop "
                         + "working, and its FAST sessions end on Prosody 13 but keep working on ejabberd 24.12. No "
                         + "such account is exit status 4, an account that is not an administrator exit status 12."],
            options: PasswordSource.declarations + [admin],
            positionals: [account],
            examples: [
                Example("printf '%s\\n' \"$NEWPW\" | xmpp-register passwd --password-stdin",
                        "Change the password of the active account from a script."),
                Example("xmpp-register passwd bob@example.org --admin --password-file bob.pw",
                        "Reset bob's password as the administrator."),
            ])

        let context: AccountContext
        let password: PasswordSource
        let target: String?
        let asAdmin: Bool

        init(_ invocation: Invocation) throws {
            context = invocation.context
            password = invocation.password
            target = invocation.command.argument(Self.account.name)
            asAdmin = invocation.command[Self.admin]
            if asAdmin != (target != nil) {
                throw ToolFailure(.usage, asAdmin ? "--admin needs the JID whose password to set"
                                  : "a JID is for --admin; without it, passwd changes the logged-in account's own password")
            }
        }

        func run() throws {
            if asAdmin, let target {
                let jid = try PasswordLogin.accountJID(target)
                let secret = try password.read(prompt: "New password for \(jid): ", confirm: true)
                try AdminCommand.perform(.changeUserPassword, account: jid, password: secret, context: context)
                if context.common.json {
                    Output.line(JSONValue.object([("jid", .string(jid.description)), ("status", .string("password_changed")),
                                                  ("session_refreshed", .bool(false))]).pretty)
                } else if !context.common.quiet {
                    Output.line("Password of \(jid) changed.")
                }
                return
            }
            let env = context.environment
            let (connection, jid) = try context.connectWithSession()
            let secret = try password.read(prompt: "New password for \(jid): ", confirm: true)
            let wasFAST: Bool
            if case .fast? = try? env.sessions.loadCached(jid) { wasFAST = true } else { wasFAST = false }
            do {
                try RegistrationService.changePassword(on: connection, username: jid.local ?? "", newPassword: secret)
            } catch {
                connection.close()
                throw ErrorMapping.failure(for: error)
            }
            connection.close()
            if case .scramKeys(let session)? = try env.sessions.loadCached(jid), session.kind == .passwordCommand {
                // Nothing derived from the password is cached: the command must print the new one.
                let command = session.passwordCommand ?? ""
                if context.common.json {
                    Output.line(JSONValue.object([("jid", .string(jid.description)), ("status", .string("password_changed")),
                                                  ("session_refreshed", .bool(false)), ("password_command", .string(command))]).pretty)
                } else if !context.common.quiet {
                    Output.line("Password of \(jid) changed; the session's password command '\(command)' must now print the new password: update it in your password manager.")
                }
                return
            }
            let stored = try env.accounts.load().accounts[jid.description]
            if wasFAST, let failure = TokenInvalidation.invalidate(context: context, jid: jid, stored: stored) {
                // Neither Prosody 13 nor ejabberd 24.12 ends a FAST token when the password changes:
                // the token this session holds is ended explicitly (XEP-0484 invalidate), as logout does.
                env.alarm("the password is changed, but the session's FAST token could not be invalidated on the "
                          + "server (\(failure.message)): a copy of the old session file may still log in; run "
                          + "'xmpp-login logout' once the server is reachable")
            }
            // The server salted the new password afresh: derive the new keys by logging in once.
            let settings = try context.settings(for: jid, stored: stored)
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
