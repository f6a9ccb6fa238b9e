import XMPPStanzas

/// The words for refusing PLAIN to an account that has used SCRAM or FAST (a possible
/// downgrade by someone between the tool and the server), with the way forward.
enum DowngradeRefusal {
    static func failure(_ jid: JID) -> ToolFailure {
        ToolFailure(.auth, "the server of \(jid) now offers only PLAIN, but this account has used SCRAM or FAST before: "
                    + "refusing a possible downgrade (the password was not sent); if its operator really turned SCRAM off, "
                    + "log in once with 'xmpp-login \(jid) --allow-plain' to accept PLAIN over TLS for it from now on")
    }
}
