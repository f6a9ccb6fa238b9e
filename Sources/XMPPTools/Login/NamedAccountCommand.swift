import Arguments
import XMPPStanzas

/// An `xmpp-login` subcommand whose only input is the optional JID argument (`status`,
/// `forget-settings`): about that account, the active one when it names none.
protocol NamedAccountCommand: ToolCommand {
    /// The optional JID argument.
    static var jid: PositionalSpec { get }
    init(context: AccountContext, jidText: String?)
}

extension NamedAccountCommand {
    init(_ invocation: Invocation) {
        self.init(context: invocation.context, jidText: invocation.command.argument(Self.jid.name))
    }
}

extension AccountContext {
    /// The account an optional JID argument names (`jidText` as given), else the active account.
    func account(named jidText: String?) throws -> JID {
        try jidText.map(PasswordLogin.accountJID) ?? accountJID()
    }
}
