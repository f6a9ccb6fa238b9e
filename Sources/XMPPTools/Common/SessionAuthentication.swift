import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// How a run authenticates as its account (ARCHITECTURE.md §4): with a password given for the
/// run when the command accepts one, else with the account's session, whatever its kind.
enum RunCredential {
    /// Cached SCRAM keys.
    case keys(SCRAMKeys)
    /// A password, and where it came from (named when the server refuses it).
    case password(String, origin: Origin)

    /// Where a password came from.
    enum Origin: Equatable {
        /// `--password-file`, `--password-stdin` or `XMPP_PASSWORD`, for this run only.
        case givenForRun
        /// The session's password command.
        case command(String)
    }

    /// The credential for `jid`: the run's password if one is given, else the session's.
    static func resolve(jid: JID, passwordForRun: PasswordSource?, session: StoredSession?,
                        timeout: Duration) throws -> RunCredential {
        if let source = passwordForRun, source.isGiven {
            return .password(try source.read(prompt: "Password for \(jid): "), origin: .givenForRun)
        }
        guard let session else {
            let oneShot = passwordForRun == nil ? "" : ", or give the password for this run (--password-file FILE, --password-stdin or XMPP_PASSWORD)"
            throw ToolFailure(.auth, "no session for \(jid): log in with 'xmpp-login \(jid)'\(oneShot)")
        }
        switch session.kind {
        case .scramKeys:
            return .keys(try SessionKeys.keys(from: session))
        case .passwordCommand:
            let command = session.passwordCommand ?? ""
            return .password(try PasswordCommand(command: command, timeout: timeout).password(), origin: .command(command))
        }
    }

    /// What the SASL layer takes.
    var scram: SCRAMCredential {
        switch self {
        case .keys(let keys): return .keys(keys)
        case .password(let password, _): return .password(password)
        }
    }

    /// The tool's words for the server refusing this credential.
    func rejection(_ error: ConnectionError, jid: JID) -> ToolFailure? {
        switch self {
        case .keys:
            guard error.isAuthRejection else { return nil }
            return ToolFailure(.auth, "the server rejected the cached session for \(jid) (password changed?): log in again with 'xmpp-login \(jid)'")
        case .password(_, .givenForRun):
            return ErrorMapping.passwordRejection(error, jid: jid.description)
        case .password(_, .command(let command)):
            guard let refusal = ErrorMapping.passwordRejection(error, jid: jid.description) else { return nil }
            return ToolFailure(refusal.code, refusal.message + "; the password came from the password command '\(command)'")
        }
    }
}

extension AccountContext {
    /// Connects as the account and binds a resource: with the password given for this run, if
    /// the command accepts one and it is given (nothing is read from or written to the session
    /// store), else with the cached session: its SCRAM keys, or the password its command prints.
    /// PLAIN only over TLS and never for an account that has used SCRAM (§4).
    public func connectWithSession() throws -> (Connection, JID) {
        let jid = try accountJID()
        let oneShot = passwordForRun?.isGiven ?? false
        let session = oneShot ? nil : try environment.sessions.load(jid)
        let credential = try RunCredential.resolve(jid: jid, passwordForRun: passwordForRun, session: session,
                                                   timeout: .seconds(common.timeout))
        let stored = try environment.accounts.load().accounts[jid.description]
        let settings = try settings(for: jid, stored: stored)
        let connection = try open(domain: jid.domain, settings: settings)
        do {
            let usedSCRAM: Bool
            if case .keys = credential { usedSCRAM = true } else { usedSCRAM = stored?.usedSCRAM ?? false }
            _ = try connection.authenticate(username: jid.local ?? "", credential: credential.scram, usedSCRAMBefore: usedSCRAM)
            try connection.bind(resource: common.resource)
        } catch {
            connection.close()
            if let rejection = credential.rejection(error, jid: jid) { throw rejection }
            throw error
        }
        return (connection, jid)
    }
}
