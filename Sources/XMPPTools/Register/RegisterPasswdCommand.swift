import Arguments
import TextFormats
import XMPPBatch
import XMPPServices
import XMPPStorage

extension RegisterTool {
    /// `xmpp-register passwd`: changes the logged-in account's password and refreshes its cached session.
    struct Passwd: ToolCommand {
        static let account = PositionalSpec("JID", help: "With --admin: the account whose password the administrator sets.", optional: true)
        static let admin = Flag("admin", help: "Set the password of JID as the server's administrator (XEP-0133 change-user-password).")
        static let report = Option<String>(
            "report", value: "FILE",
            help: "With --admin: also put the new password into JID's row of this batch report (xmpp-register batch --report), so the batch's next run logs in with it.",
            completion: .file(extensions: ["csv"]))

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
                         + "such account is exit status 4, an account that is not an administrator exit status 12.",
                         "--report FILE names the report of the xmpp-register batch that made JID (the mode 0600 file "
                         + "with its generated or carried-over passwords): the new password replaces the one in JID's row, "
                         + "atomically, and in the batch's journal (FILE.journal) if that still holds the row's password. "
                         + "Without it the report keeps the old password, and the batch's next run (a new classmate, "
                         + "say) cannot log in as JID to set its roster. The report is checked first: a file that is not "
                         + "the user's own batch report, has no password column (the CSV gave the passwords: change it "
                         + "there) or no row for JID is refused with exit status 2 before the password is changed. The "
                         + "split of the report by group (--report-by-group) is rewritten by the batch's next run. A "
                         + "journal another batch is using right now is exit status 1 after the change: the message "
                         + "says so, and running passwd again with the same password once it has finished puts it there. With "
                         + "--json the answer's report key names the report written (null without --report)."],
            options: PasswordSource.declarations + [admin, report],
            positionals: [account],
            rules: [.requires("report", "admin", because: "the report holds the passwords the administrator's batch made")],
            examples: [
                Example("printf '%s\\n' \"$NEWPW\" | xmpp-register passwd --password-stdin",
                        "Change the password of the active account from a script."),
                Example("xmpp-register passwd bob@example.org --admin --password-file bob.pw",
                        "Reset bob's password as the administrator."),
                Example("xmpp-register passwd ann@school.example --admin --report pw.csv",
                        "Reset a pupil's password and keep the school's report (pw.csv) in step with it."),
            ])

        let context: AccountContext
        let password: PasswordSource
        let target: String?
        let asAdmin: Bool
        let reportPath: String?

        init(_ invocation: Invocation) throws {
            context = invocation.context
            password = invocation.password
            target = invocation.command.argument(Self.account.name)
            asAdmin = invocation.command[Self.admin]
            reportPath = try invocation.command.value(Self.report).map { path in
                PathText.absolute(path, from: invocation.context.environment.currentDirectory)
            }
            if asAdmin != (target != nil) {
                throw ToolFailure(.usage, asAdmin ? "--admin needs the JID whose password to set"
                                  : "a JID is for --admin; without it, passwd changes the logged-in account's own password")
            }
        }

        func run() throws {
            if asAdmin, let target {
                let jid = try PasswordLogin.accountJID(target)
                // The report is checked before the server changes anything: a wrong path must not
                // leave a password changed that the report does not have.
                if let reportPath { try ReportPassword.check(report: reportPath, jid: jid.description) }
                let secret = try password.read(prompt: "New password for \(jid): ", confirm: true)
                try AdminCommand.perform(.changeUserPassword, account: jid, password: secret, context: context)
                if let reportPath {
                    do { try ReportPassword.replace(report: reportPath, jid: jid.description, password: secret) } catch {
                        let failure = ErrorMapping.failure(for: error)
                        throw ToolFailure(.failed, "the password of \(jid) is changed, but \(reportPath) could not take it (\(failure.message)); "
                                          + "run passwd --admin --report again with the same password once that is fixed")
                    }
                }
                if context.common.json {
                    Output.line(JSONValue.object([("jid", .string(jid.description)), ("status", .string("password_changed")),
                                                  ("session_refreshed", .bool(false)),
                                                  ("report", reportPath.map(JSONValue.string) ?? .null)]).pretty)
                } else if !context.common.quiet {
                    Output.line("Password of \(jid) changed" + (reportPath.map { "; \($0) has the new one." } ?? "."))
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
