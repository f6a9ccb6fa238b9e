import Arguments
import XMPPStanzas

extension RegisterTool {
    /// `xmpp-register enable JID`: the administrator's XEP-0133 reenable-user for one account.
    struct Enable: AccountStateCommand {
        static let command = ServiceAdministration.Command.reenableUser
        static let status = "enabled"

        static let spec = CommandSpec(
            "enable", summary: "Re-enable an account that was disabled, as the server's administrator (XEP-0133 reenable-user).",
            discussion: ["The administrator logged in (the active account, or -a ADMIN) runs the server's reenable-user command for JID, "
                         + "so that it can log in again. Where the server has no such command (of those this suite is tested "
                         + "with, all but Prosody 13), the tool says so with exit status 4. An account that does not exist is exit "
                         + "status 4; an administrator the server does not accept as one, exit status 12."],
            options: PasswordSource.declarations,
            positionals: [account],
            examples: [Example("xmpp-register enable pupil@school.example", "Let a disabled account log in again.")])

        let context: AccountContext
        let target: String
    }
}
