import Arguments
import TextFormats
import XMPPBatch
import XMPPServices
import XMPPStanzas
import XMPPStorage

extension RegisterTool {
    /// `xmpp-register [create] JID`: creates the account on an unauthenticated stream; with
    /// `--login`, caches a session too; profile options are set right after.
    struct Create: ToolCommand {
        static let jid = PositionalSpec("JID", help: "The account to create, user@domain.")
        static let login = Flag("login", help: "Also log in and cache a session, making the account active.")
        static let invite = Option<String>(
            "invite", value: "URI", help: "Redeem this invite (xmpp:DOMAIN?register;preauth=TOKEN) to create the account where registration is by invitation.")
        static let admin = Flag(
            "admin", help: "Create it as the server's administrator (XEP-0133 add-user, with the logged-in admin's session), where registration is closed.")
        static let field = Option<String>(
            "field", value: "NAME=VALUE", help: "Answer one more field the server asks for, such as email=alice@example.org.",
            repeatable: true)
        static let nickname = Option<String>("nickname", value: "NAME", help: "Set the nickname right after creating the account (vCard, vCard4 and the XEP-0172 nickname node).")
        static let fullname = Option<String>("fullname", value: "NAME", help: "Set the vCard full name right after creating the account.")
        static let email = Option<String>(
            "email", value: "ADDRESS", help: "Add this email to the vCard, and answer the form's email field if it has one.")
        static let avatar = Option<String>(
            "avatar", value: "IMAGE", help: "Publish this PNG, JPEG or WebP image, resized to 100x100, as the avatar (XEP-0084 and XEP-0153). On a server without PEP (jabberd2) it is the vCard PHOTO only: a warning says so and lists what the vCard holds, and the command succeeds.",
            completion: .file(extensions: ["png", "jpg", "jpeg"]))

        static let spec = CommandSpec(
            "create", summary: "Create the account JID with a new password.",
            discussion: ["An account that exists already is exit status 5. A server that creates no account for "
                         + "this client, whichever is asked for (no in-band registration, registration closed, or by "
                         + "invitation only), is exit status 10, and the message says who can still create it; one "
                         + "that limits how many accounts an address may create (ejabberd's default: one every 600 s) "
                         + "is exit status 11: try again later. A CAPTCHA or registration on a web page only is exit "
                         + "status 8.",
                         "With --admin the account is made by the administrator logged in with xmpp-login (the active "
                         + "account, or -a ADMIN): its cached session runs the server's add-user command (XEP-0133), "
                         + "so it works where in-band registration is closed. The new password still comes from the "
                         + "usual sources, never argv. An account that is not an administrator of the server is exit "
                         + "status 12. --field does not apply (the command's form has no extra fields to answer).",
                         "With --invite URI, an invite link (XEP-0401: xmpp:DOMAIN?register;preauth=TOKEN, as "
                         + "batch --invite writes them, or a contact invite ending ;ibr=y) is redeemed: the token is "
                         + "presented on the unauthenticated stream (XEP-0445 pre-authenticated registration) and the "
                         + "account is then registered as usual, on a server whose registration is by invitation "
                         + "only. An unknown, used or expired invite is exit status 8; an invite for another domain "
                         + "or user name is exit status 2."],
            options: PasswordSource.declarations + [login, admin, invite, field, nickname, fullname, email, avatar],
            positionals: [jid],
            rules: [.exclusive("admin", "field", because: "add-user's form has no extra fields"), .exclusive("admin", "invite")],
            examples: [
                Example("xmpp-register alice@example.org --nickname Alice --fullname 'Alice Liddell' "
                            + "--avatar alice.jpg --login",
                        "Create an account, set its vCard and avatar, and log in."),
                Example("xmpp-register create ops@example.org --field email=ops@example.org "
                            + "--password-file pw.txt",
                        "Create an account on a server that also asks for an e-mail address."),
                Example("xmpp-register carol@example.org --admin -a admin@example.org --password-file carol.pw",
                        "Create an account as the administrator admin@example.org, where registration is closed."),
                Example("xmpp-register pupil7@school.example --invite 'xmpp:school.example?register;preauth=Ab3…' --login",
                        "Create an account with an invite link and log in to it."),
            ])

        let context: AccountContext
        let password: PasswordSource
        let jidText: String
        let fields: [String: String]
        let profile: Profile
        let logIn: Bool
        let asAdmin: Bool
        let inviteText: String?

        init(_ invocation: Invocation) throws {
            let command = invocation.command
            context = invocation.context
            password = invocation.password
            jidText = command.argument(Self.jid.name) ?? ""
            profile = Profile(nickname: try command.value(Self.nickname), fullname: try command.value(Self.fullname),
                              email: try command.value(Self.email), avatar: try command.value(Self.avatar).map(AvatarSource.file))
            fields = try Self.fields(try command.values(Self.field))
            logIn = command[Self.login]
            asAdmin = command[Self.admin]
            inviteText = try command.value(Self.invite)
        }

        /// `--field NAME=VALUE` pairs; `password` and `username` may not be given this way.
        static func fields(_ pairs: [String]) throws(ToolFailure) -> [String: String] {
            var result: [String: String] = [:]
            for pair in pairs {
                guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                    throw ToolFailure(.usage, "invalid --field '\(pair)': expected NAME=VALUE")
                }
                let name = String(pair[..<eq])
                guard name != "password", name != "username" else {
                    throw ToolFailure(.usage, "--field may not set '\(name)' (the JID and password sources do)")
                }
                result[name] = String(pair[pair.index(after: eq)...])
            }
            return result
        }

        func run() throws {
            let env = context.environment
            let jid = try PasswordLogin.accountJID(jidText)
            let settings = try context.settings(for: jid, stored: try env.accounts.load().accounts[jid.description])
            // A bad avatar fails before the account exists.
            let avatarPNG = try ProfileApplier.prepareAvatar(profile)
            let invite = try inviteText.map { text throws in
                do { return try InviteURI(text) } catch { throw ToolFailure(.badInput, "invalid --invite: \(error)") }
            }
            if let invite { try InviteService.check(invite, for: jid) }
            let secret = try password.read(prompt: "New password for \(jid): ", confirm: true)
            if asAdmin {
                try AdminCommand.perform(.addUser, account: jid, password: secret, context: context)
            } else if let invite {
                let connection = try context.open(domain: jid.domain, settings: settings)
                defer { connection.close() }
                try InviteService.redeem(invite, account: jid, password: secret, on: connection)
            } else {
                var registrationFields = fields
                if let email = profile.email, registrationFields["email"] == nil { registrationFields["email"] = email }
                let connection = try context.open(domain: jid.domain, settings: settings)
                do {
                    try RegistrationService.register(on: connection, username: jid.local ?? "", password: secret, extra: registrationFields)
                } catch {
                    connection.close()
                    throw ErrorMapping.failure(for: error)
                }
                connection.close()
            }
            if !profile.isEmpty {
                try applyProfile(avatarPNG: avatarPNG, jid: jid, settings: settings, password: secret)
            }
            var loggedIn: PasswordLogin.Result?
            if logIn {
                let result = try PasswordLogin.authenticate(context: context, jid: jid, settings: settings, password: secret)
                try PasswordLogin.saveSession(env: env, jid: jid, settings: settings, result: result, makeActive: true)
                loggedIn = result
            }
            if context.common.json {
                Output.line(JSONValue.object([
                    ("jid", .string(jid.description)), ("status", .string("created")),
                    ("logged_in", .bool(loggedIn != nil)),
                    ("profile", .array(profile.fieldNames.map(JSONValue.string))),
                ]).pretty)
            } else if !context.common.quiet {
                Output.line("Created \(jid)." + (loggedIn != nil ? " Logged in; \(jid) is active." : ""))
            }
        }

        /// Logs in once with the new password and sets the profile (vCard fields, avatar).
        private func applyProfile(avatarPNG: [UInt8]?, jid: JID, settings: AccountSettings, password: String) throws {
            let connection = try context.open(domain: jid.domain, settings: settings)
            defer { connection.close() }
            do {
                _ = try connection.authenticate(username: jid.local ?? "", credential: .password(password), usedSCRAMBefore: false)
                try connection.bind(resource: context.common.resource)
                let applied = try ProfileApplier.apply(profile, avatarPNG: avatarPNG, on: connection)
                if let shortfall = applied.shortfall { context.environment.warn(shortfall) }
            } catch {
                let failure = ErrorMapping.failure(for: error)
                throw ToolFailure(failure.code, "\(jid) was created, but its profile was not set: \(failure.message)")
            }
        }
    }
}
