import Arguments
import TextFormats
import XMPPStorage

extension LoginTool {
    /// `xmpp-login forget-settings [JID]`: forgets an account's remembered connection settings
    /// and keeps its session, so later commands look its server up and trust the system again.
    struct ForgetSettings: NamedAccountCommand {
        static let jid = PositionalSpec("JID", help: "The account.", optional: true, completion: .accounts)

        static let spec = CommandSpec(
            "forget-settings",
            summary: "Forget the remembered --server, --direct-tls, --ca-file and --pin of an account (default: the active one).",
            discussion: ["The session stays: later commands look the server up by SRV and trust the system's "
                         + "certificate authorities, unless given options again. To change the settings "
                         + "instead, log in again with the new ones. An account with nothing remembered "
                         + "succeeds with a note. The server is not contacted. With --json, forgotten holds "
                         + "what was remembered, with the keys of status."],
            positionals: [jid],
            examples: [
                Example("xmpp-login forget-settings work@example.com",
                        "Stop using the --server and --ca-file work@example.com logged in with."),
            ])

        let context: AccountContext
        let jidText: String?

        func run() throws {
            let env = context.environment
            let jid = try context.account(named: jidText)
            var old: AccountSettings?
            try env.accounts.update { file in
                old = file.accounts[jid.description]
                if let old { file.accounts[jid.description] = AccountSettings(usedSCRAM: old.usedSCRAM) }
            }
            let forgotten = RememberedSettings.options(old)
            if context.common.json {
                Output.line(JSONValue.object([("jid", .string(jid.description)),
                                              ("forgotten", RememberedSettings.json(old))]).pretty)
            } else if forgotten.isEmpty {
                env.warn("\(jid) has no remembered connection settings")
            } else if !context.common.quiet {
                Output.line("Forgot \(forgotten.joined(separator: " ")) for \(jid); its session stays.")
            }
        }
    }
}
