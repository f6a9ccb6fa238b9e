import XMPPConnection
import XMPPStanzas

/// Which accounts exist, asked of the server by an administrator (XEP-0133), for a refresh
/// before planning. The servers offer different commands: ejabberd's mod_configure lists every
/// account of a domain at once (get-registered-users-list, field `registereduserjids`); Prosody's
/// mod_admin_adhoc has no list, but its user-stats completes with the error note "User does not
/// exist" for an account that does not (ejabberd's user-stats answers for any name, so the list
/// comes first). Network only.
public enum AccountInventory {
    /// The command that lists a domain's accounts.
    public static let listNode = Namespace.admin + "#get-registered-users-list"
    /// The command that answers for one account.
    public static let statsNode = Namespace.admin + "#user-stats"
    /// The list's field.
    static let listField = "registereduserjids"

    /// How a domain's server can tell which accounts exist.
    public enum Method: Sendable, Equatable {
        /// One list of every account.
        case list
        /// One user-stats per account.
        case perAccount
        /// Neither is offered to this administrator.
        case none
    }

    /// What `domain`'s server offers this administrator. A server that lists none of the
    /// XEP-0133 user commands to the account (both list them to administrators only) is
    /// `forbidden`: the account is not an administrator there.
    public static func method(domain: String, on channel: any StanzaChannel) throws(AdHocError) -> Method {
        let nodes = Set(try AdHocService.commands(on: channel, at: try? JID(domain)).map(\.node))
        let addUser = ServiceAdministration.Command.addUser.node
        guard nodes.contains(addUser) || nodes.contains(ServiceAdministration.Command.deleteUser.node) else {
            throw .forbidden(node: addUser, StanzaError(type: "auth", condition: .forbidden, text: "no administration command is listed to this account"))
        }
        if nodes.contains(listNode) { return .list }
        if nodes.contains(statsNode) { return .perAccount }
        return .none
    }

    /// Of `accounts` (all of `domain`), those that exist, asked by `method`; nil for `.none`.
    public static func existing(_ accounts: [JID], domain: String, method: Method,
                                on channel: any StanzaChannel) throws(AdHocError) -> Set<JID>? {
        let entity = try? JID(domain)
        switch method {
        case .none:
            return nil
        case .list:
            let answer = try AdHocService.run(on: channel, node: listNode, at: entity, values: [:]).answer
            return Set(listed(in: answer))
        case .perAccount:
            var out: Set<JID> = []
            for account in accounts {
                do {
                    _ = try AdHocService.run(on: channel, node: statsNode, at: entity,
                                             values: [ServiceAdministration.accountJID: [account.bare.description]])
                    out.insert(account.bare)
                } catch {
                    guard isNoSuchAccount(error) else { throw error }
                }
            }
            return out
        }
    }

    /// The accounts a get-registered-users-list answer names (bare JIDs; unreadable values skipped).
    public static func listed(in answer: AdHocCommand) -> [JID] {
        (answer.form?.field(listField)?.values ?? []).compactMap { try? JID($0).bare }
    }

    /// True for the answer that means the account does not exist: Prosody's completed
    /// "User does not exist", or item-not-found to the submitted form.
    public static func isNoSuchAccount(_ error: AdHocError) -> Bool {
        switch error {
        case .failed(_, let message): return message.contains("does not exist")
        case .connection(.stanzaError(let e)): return e.condition == .itemNotFound
        default: return false
        }
    }
}
