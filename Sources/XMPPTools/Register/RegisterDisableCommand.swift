import Arguments
import XMPPStanzas

extension RegisterTool {
    /// `xmpp-register disable JID`: the administrator's XEP-0133 disable-user for one account.
    struct Disable: AccountStateCommand {
        static let command = ServiceAdministration.Command.disableUser
        static let status = "disabled"

        static let spec = CommandSpec(
            "disable", summary: "Disable an account as the server's administrator: it can no longer log in (XEP-0133 disable-user).",
            discussion: ["The administrator logged in (the active account, or -a ADMIN) runs the server's disable-user command for JID: "
                         + "the account and its data stay, but it cannot log in until xmpp-register enable JID. Of the servers "
                         + "this suite is tested with, Prosody 13 offers the command (mod_admin_adhoc); Prosody 0.12 and "
                         + "ejabberd 23.01 and 24.12 do not list it, and the tool then says so with exit status 4 (ejabberd: "
                         + "ejabberdctl ban_account is the way there). An account that does not exist is exit status 4; "
                         + "an administrator the server does not accept as one, exit status 12."],
            options: PasswordSource.declarations,
            positionals: [account],
            examples: [Example("xmpp-register disable pupil@school.example -a admin@school.example", "Stop an account from logging in, keeping its data.")])

        let context: AccountContext
        let target: String
    }
}
