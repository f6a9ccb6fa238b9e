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
    /// refuses PLAIN before anything is sent, for callers that need the keys.
    public func authenticate(username: String, credential: SCRAMCredential, usedSCRAMBefore: Bool,
                             requireSCRAM: Bool = false) throws(ConnectionError) -> AuthenticationOutcome {
        try openStreamIfPending()
        let tlsSession = stream.transport.tlsSession
        let binding = tlsSession.map {
            TLSBindingInfo(version: $0.version == .tls13 ? .tls13 : .tls12, tlsUnique: $0.tlsUnique, tlsExporter: $0.tlsExporter)
        }
        var cachedHash: HashFunction?
        if case .keys(let k) = credential { cachedHash = k.hash }
        let choice: MechanismChoice
        do {
            choice = try SASLSelection.choice(
                offered: features.mechanisms, tls: binding, cachedKeysHash: cachedHash,
                usedSCRAMBefore: usedSCRAMBefore, allowPlain: stream.transport.isSecure, requireSCRAM: requireSCRAM,
                serverCBTypes: features.channelBindingTypes?.compactMap(ChannelBindingType.init(rawValue:)))
        } catch {
            throw .sasl(error)
        }
        let outcome: AuthenticationOutcome
        switch choice.mechanism {
        case .plain:
            guard case .password(let password) = credential else { throw .sasl(.noAcceptableMechanism(offered: features.mechanisms)) }
            try runPlain(username: username, password: password)
            outcome = AuthenticationOutcome(mechanism: "PLAIN", keys: nil)
        case .scram(let mechanism, _):
            let keys = try runSCRAM(mechanism: mechanism, username: username, credential: credential,
                                    channelBinding: choice.channelBinding)
            outcome = AuthenticationOutcome(mechanism: mechanism.name, keys: keys)
        }
        mechanism = outcome.mechanism
        features = try stream.open(to: options.domain, from: options.account)
        return outcome
    }

    private func runPlain(username: String, password: String) throws(ConnectionError) {
        let message = PLAINMechanism.message(authcid: username, password: password)
        try stream.send(XMLElement("auth", namespace: Namespace.sasl, attributes: ["mechanism": "PLAIN"],
                                   children: [.text(Base64.encode(message))]))
        let answer = try stream.nextElement(deadline: .now + options.timeout)
        try Connection.checkSASLFailure(answer)
        guard answer.name == "success" else { throw .protocolViolation("unexpected <\(answer.name)/> during PLAIN") }
    }

    private func runSCRAM(mechanism: SCRAMMechanism, username: String, credential: SCRAMCredential, channelBinding: ChannelBinding) throws(ConnectionError) -> SCRAMKeys? {
        var client: SCRAMClient
        do {
            client = try SCRAMClient(mechanism: mechanism, username: username, credential: credential, channelBinding: channelBinding)
        } catch { throw .sasl(error) }
        try stream.send(XMLElement("auth", namespace: Namespace.sasl, attributes: ["mechanism": mechanism.name],
                                   children: [.text(Base64.encode(client.clientFirstMessage()))]))
        let challenge = try stream.nextElement(deadline: .now + options.timeout)
        refusedBeforeChallenge = challenge.name == "failure"
        try Connection.checkSASLFailure(challenge)
        guard challenge.name == "challenge" else { throw .protocolViolation("expected a SASL challenge, got <\(challenge.name)/>") }
        let final: [UInt8]
        do {
            let serverFirst = try Connection.decodeSASL(challenge)
            downgradeProtected = try SSDP.verify(serverFirst: serverFirst, hash: mechanism.hash, mechanisms: features.mechanisms,
                                                 channelBindingTypes: features.channelBindingTypes)
            final = try client.clientFinalMessage(serverFirst: serverFirst)
        } catch { throw .sasl(error) }
        try stream.send(XMLElement("response", namespace: Namespace.sasl, children: [.text(Base64.encode(final))]))
        var answer = try stream.nextElement(deadline: .now + options.timeout)
        try Connection.checkSASLFailure(answer)
        if answer.name == "challenge" {
            // Server-final sent as a challenge (RFC 6120 §6.3.10 allows it): verify, then an empty response.
            do { try client.verify(serverFinal: try Connection.decodeSASL(answer)) } catch { throw .sasl(error) }
            try stream.send(XMLElement("response", namespace: Namespace.sasl))
            answer = try stream.nextElement(deadline: .now + options.timeout)
            try Connection.checkSASLFailure(answer)
            guard answer.name == "success" else { throw .protocolViolation("expected SASL success, got <\(answer.name)/>") }
        } else {
            guard answer.name == "success" else { throw .protocolViolation("expected SASL success, got <\(answer.name)/>") }
            // A server that authenticates us without proving it knows the password is not trusted.
            do { try client.verify(serverFinal: try Connection.decodeSASL(answer)) } catch { throw .sasl(error) }
        }
        return client.keys
    }

    static func decodeSASL(_ element: XMLElement) throws(SASLError) -> [UInt8] {
        let text = element.text.trimmingWhitespace()
        if text.isEmpty || text == "=" { return [] }
        guard let bytes = Base64.decode(text) else { throw .malformedServerMessage("invalid base64 in <\(element.name)/>") }
        return bytes
    }

    static func checkSASLFailure(_ element: XMLElement) throws(ConnectionError) {
        guard element.name == "failure", element.namespace == Namespace.sasl else { return }
        let condition = element.elements.first { $0.name != "text" }?.name ?? "not-authorized"
        let text = element.child("text")?.text
        throw .authenticationFailed(condition: condition, text: (text?.isEmpty ?? true) ? nil : text)
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
        guard features.bind else { throw .protocolViolation("server offers no resource binding") }
        let chosen = resource ?? "xmpp-tools." + Hex.encode(Crypto.randomBytes(4))
        let reply = try request(Iq(type: .set, id: makeID(), payload: Bind.request(resource: chosen)))
        let jid: JID
        do { jid = try Bind.boundJID(from: reply.payload) } catch { throw .badStanza(error) }
        try requireOwnDomain(jid)
        boundJID = jid
        if features.sessionRequired {
            try request(Iq(type: .set, id: makeID(), payload: XMLElement("session", namespace: Namespace.session)))
        }
        return jid
    }
}
