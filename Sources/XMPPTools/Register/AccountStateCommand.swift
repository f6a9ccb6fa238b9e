import Arguments
import XMPPStanzas

/// `xmpp-register disable|enable JID`: one XEP-0133 command that changes whether an account may
/// log in, run by the administrator (the active account or `-a`) on the account JID names.
protocol AccountStateCommand: ToolCommand {
    /// The XEP-0133 command (disable-user, reenable-user).
    static var command: ServiceAdministration.Command { get }
    /// The account's state afterwards, as printed ("disabled", "enabled").
    static var status: String { get }
    var context: AccountContext { get }
    var target: String { get }
    init(context: AccountContext, target: String)
}

extension AccountStateCommand {
    static var account: PositionalSpec { PositionalSpec("JID", help: "The account.") }

    init(_ invocation: Invocation) throws {
        self.init(context: invocation.passwordContext, target: invocation.command.argument(Self.account.name) ?? "")
    }

    func run() throws {
        try AdminCommand.performAndReport(Self.command, target: target, status: Self.status, context: context)
    }
}
