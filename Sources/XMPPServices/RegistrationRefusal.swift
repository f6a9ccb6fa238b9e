import XMPPStanzas

/// Why a server creates no account for this client, whichever account is asked for: what an
/// error reply says about registration itself rather than about the one account (a taken name is
/// `conflict`, a bad name or weak password `not-acceptable`). Measured answers (DESIGN-NOTES.md):
/// ejabberd 23.01 with registration denied: the form, then `auth/forbidden` "Access denied by
/// service policy" to the submission; Prosody 0.12 invites_register: `modify/not-acceptable`
/// "Registration on this server is through invitation only"; throttled: Prosody
/// `wait/policy-violation`, ejabberd `wait/resource-constraint`.
public enum RegistrationRefusal: Sendable, Equatable {
    /// Registration is closed to this client (all of it, or this address).
    case closed
    /// Accounts are created by invitation only.
    case invitationOnly
    /// Too many accounts from this address lately: the same request later can succeed.
    case throttled

    /// The refusal an error reply to a registration (or to the form request) expresses, or nil
    /// when it concerns the one account asked for.
    public init?(_ error: StanzaError) {
        // Prosody sends the invitation text with not-acceptable, the condition it also uses for a
        // bad user name, so the text is what tells them apart.
        if let text = error.text, text.lowercased().contains("invit"),
           [.notAcceptable, .forbidden, .notAllowed].contains(error.condition) {
            self = .invitationOnly
        } else if error.isThrottle {
            self = .throttled
        } else if error.condition == .forbidden || error.condition == .notAllowed {
            self = .closed
        } else {
            return nil
        }
    }

    /// Whether a later attempt of the same request can succeed.
    public var isTemporary: Bool { self == .throttled }
}
