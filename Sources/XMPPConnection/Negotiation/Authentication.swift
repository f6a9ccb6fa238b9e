import CryptoPrimitives
import XMLTree
import XMPPStanzas

/// What a successful authentication leaves behind, for the session cache.
public struct AuthenticationOutcome: Sendable {
    /// The mechanism name, e.g. `SCRAM-SHA-1-PLUS`.
    public var mechanism: String
    /// SCRAM keys that can authenticate again without the password (nil after PLAIN).
    public var keys: SCRAMKeys?
}

extension Connection {
    /// Authenticates (RFC 6120 §6) as `username`, restarts the stream and refreshes `features`.
    /// `usedSCRAMBefore` refuses a downgrade to PLAIN for accounts that had SCRAM; `requireSCRAM`
    /// refuses PLAIN before anything is sent, for callers that need the keys. The connection
    /// engine's log-in (`StreamLogIn`, RFC 6120 SASL only, no binding) run to its end.
    public func authenticate(username: String, credential: SCRAMCredential, usedSCRAMBefore: Bool,
                             requireSCRAM: Bool = false) throws(ConnectionError) -> AuthenticationOutcome {
        let login: LoginCredential = switch credential {
        case .password(let password): .password(password)
        case .keys(let keys): .keys(keys)
        }
        let request = LoginRequest(username: username, credential: login, usedSCRAMBefore: usedSCRAMBefore,
                                   requireSCRAM: requireSCRAM, bind: false)
        let outcome = try StreamLogIn(self, request, saslOnly: true).run()
        return AuthenticationOutcome(mechanism: outcome.mechanism, keys: outcome.keys)
    }

    /// Refuses a bound JID of another domain than the stream's (RFC 6120 §7.6.1: the server
    /// binds a resource to the account it authenticated): a server that says we are someone
    /// else's would have every later request and cache entry filed under the wrong account.
    func requireOwnDomain(_ jid: JID) throws(ConnectionError) {
        let own = (try? JID(options.domain))?.domain ?? options.domain
        guard jid.domain == own else {
            throw .protocolViolation("the server bound the session to \(JID.printable(jid.description)), "
                                     + "not to an account of \(JID.printable(own))")
        }
    }

    /// Binds a resource (RFC 6120 §7); a nil `resource` lets the tools pick `xmpp-tools.<random>`
    /// so two tools of one account never knock each other off.
    @discardableResult
    public func bind(resource: String? = nil) throws(ConnectionError) -> JID {
        guard let jid = try StreamLogIn(binding: self, resource: resource).run().boundJID else {
            throw .protocolViolation("the binding bound no JID")
        }
        return jid
    }

    /// The bind request (RFC 6120 §7.6/7.7).
    func bindRequest(resource: String?) throws(ConnectionError) -> Iq {
        guard features.bind else { throw .protocolViolation("server offers no resource binding") }
        let chosen = resource ?? "xmpp-tools." + Hex.encode(Crypto.randomBytes(4))
        return Iq(type: .set, id: makeID(), payload: Bind.request(resource: chosen))
    }

    /// The JID the server bound, from the bind request's result, checked and kept.
    func takeBound(_ reply: Iq) throws(ConnectionError) -> JID {
        let jid: JID
        do { jid = try Bind.boundJID(from: reply.payload) } catch { throw .badStanza(error) }
        try requireOwnDomain(jid)
        boundJID = jid
        return jid
    }

    /// The RFC 3921 session request, for a server whose features still require one.
    func sessionRequest() -> Iq? {
        features.sessionRequired ? Iq(type: .set, id: makeID(), payload: XMLElement("session", namespace: Namespace.session)) : nil
    }
}
