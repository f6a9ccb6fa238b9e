import Arguments
import TextFormats
import XMPPStanzas
import XMPPStorage

extension LoginTool {
    /// `xmpp-login logout [JID|--all]`: forgets one account's session (the active one by
    /// default) or all of them; a FAST token is invalidated on the server first.
    struct Logout: ToolCommand {
        static let all = Flag("all", help: "Log out of every account.")
        static let jid = PositionalSpec("JID", help: "The account.", optional: true, completion: .accounts)

        static let spec = CommandSpec(
            "logout", summary: "Forget the cached session of an account (default: the active one).",
            discussion: ["Logging out of an account that is not logged in succeeds with a note, so "
                         + "scripts may call it unconditionally.",
                         "A session of kind scram-keys is forgotten offline: its keys keep working, wherever a copy "
                         + "is, until the password changes. A FAST session (see xmpp-login status) "
                         + "is first invalidated on the server, its token and the one its last rotation replaced "
                         + "(Prosody 13 keeps that one valid until the new one is used), so no copy of the session "
                         + "file taken before can authenticate afterwards (tested on Prosody 13.0.1 and ejabberd "
                         + "24.12); the session file is deleted in any case, but when the server "
                         + "cannot be reached the token may still be valid until it expires, and the exit status says "
                         + "so (6 for the network, 7 for TLS) after every named account is logged out."],
            options: [all],
            positionals: [jid],
            examples: [
                Example("xmpp-login list --json | jq -r '.[] | select(.active | not) | .jid' "
                            + "| xargs -r -n 1 xmpp-login logout",
                        "Log out of every account but the active one."),
            ])

        let context: AccountContext
        let jidText: String?
        let everyAccount: Bool

        init(_ invocation: Invocation) {
            context = invocation.context
            jidText = invocation.command.argument(Self.jid.name)
            everyAccount = invocation.command[Self.all]
        }

        func run() throws {
            let env = context.environment
            var named: String?
            if !everyAccount {
                named = try context.account(named: jidText).description
            }
            var removed: [String] = []
            var unknown: [String] = []
            let accountsBefore = try env.accounts.load()
            let candidates = named.map { [$0] }
                ?? Array(Set(accountsBefore.accounts.keys).union(SecureFile.list(env.paths.sessionsDirectory))).sorted()
            var failure: ToolFailure?
            for name in candidates {
                guard let jid = try? JID(name) else { continue }
                if let error = TokenInvalidation.invalidate(context: context, jid: jid, stored: accountsBefore.accounts[name]) {
                    let line = "the token of \(name) could not be invalidated on the server (\(error.message)); its session file is deleted"
                    if failure == nil { failure = ToolFailure(error.code, line) } else { env.warn(line) }
                }
            }
            // Under the accounts lock, so that a log-in at the same time is neither lost nor undone.
            try env.accounts.update { file throws(StorageError) in
                let sessions = SecureFile.list(env.paths.sessionsDirectory)
                let targets = named.map { [$0] } ?? Array(Set(file.accounts.keys).union(sessions)).sorted()
                for name in targets {
                    let known = file.accounts[name] != nil || sessions.contains(name)
                    try SecureFile.remove(env.paths.sessionFile(name))
                    file.accounts[name] = nil
                    if file.active == name { file.active = nil }
                    if known { removed.append(name) } else { unknown.append(name) }
                }
            }
            for name in unknown { env.warn("\(name) was not logged in") }
            if context.common.json {
                Output.line(JSONValue.object([("logged_out", .array(removed.map(JSONValue.string)))]).pretty)
            } else if !context.common.quiet {
                for name in removed { Output.line("Logged out \(name); its session file is deleted.") }
            }
            if let failure { throw failure }
        }
    }
}
