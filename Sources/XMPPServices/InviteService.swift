import XMPPConnection
import XMPPStanzas

/// Why an invite could not be redeemed.
public enum InviteError: Error, Sendable, CustomStringConvertible {
    /// The server refused the token: unknown, used, or expired.
    case rejected(StanzaError)
    /// The URI names another server, or another user, than the account to create.
    case mismatch(String)
    /// The invite is for a contact only and does not allow registering.
    case noRegistration
    /// Registration after the token was accepted failed.
    case registration(RegistrationError)

    public var description: String {
        switch self {
        case .rejected(let e): return "the server does not accept the invite: it is unknown, used up or expired (\(e))"
        case .mismatch(let m): return m
        case .noRegistration: return "this invite adds a contact but does not allow creating an account"
        case .registration(let e): return e.description
        }
    }
}

/// Redeeming an invite (XEP-0401 §5, XEP-0445): on an unauthenticated stream, the token first
/// (`<preauth/>`), then in-band registration, which the server now allows for this stream.
public enum InviteService {
    /// Checks that `invite` may create `account`, presents its token and registers the account.
    public static func redeem(_ invite: InviteURI, account: JID, password: String, on channel: any StanzaChannel) throws(InviteError) {
        try check(invite, for: account)
        do {
            try channel.request(Iq(type: .set, id: channel.makeID(), payload: invite.preauthPayload))
        } catch {
            if case .stanzaError(let e) = error { throw .rejected(e) }
            throw .registration(.connection(error))
        }
        do { try RegistrationService.register(on: channel, username: account.local ?? "", password: password) } catch {
            throw .registration(error)
        }
    }

    /// Whether `invite` can create `account` at all, before anything is sent.
    public static func check(_ invite: InviteURI, for account: JID) throws(InviteError) {
        guard invite.allowsRegistration else { throw .noRegistration }
        guard invite.jid.domain == account.domain else {
            throw .mismatch("the invite is for \(invite.jid.domain), not \(account.domain)")
        }
        if invite.action == "register", let user = invite.jid.local, user != account.local {
            throw .mismatch("the invite is for the user name '\(user)' only, not '\(account.local ?? "")'")
        }
    }
}
