import XMPPServices

/// What a person can do when a server creates no account for this client, in the tool's words
/// (the service's error says what the server answered; this says what to do next).
enum RegistrationAdvice {
    /// Who can still create the account, for a closed server.
    static let administrator = "ask the server's administrator to create the account "
        + "(prosodyctl adduser, ejabberdctl register, or XEP-0133 ad-hoc commands)"

    /// The way forward after `refusal`.
    static func wayForward(_ refusal: RegistrationRefusal) -> String {
        switch refusal {
        case .closed: return administrator
        case .invitationOnly:
            return "ask an existing user or the administrator for an invitation and open its link in a client "
                + "that supports invitations, or " + administrator
        case .throttled:
            return "wait and try again later (ejabberd's default is one account per address every 600 s); "
                + "xmpp-register batch waits and retries by itself, and --resume continues a batch that gave up"
        }
    }

    /// The exit status of `refusal`: a stop (10) or a "not now" (11).
    static func code(_ refusal: RegistrationRefusal) -> ExitCode {
        refusal.isTemporary ? .registrationThrottled : .registrationClosed
    }
}
