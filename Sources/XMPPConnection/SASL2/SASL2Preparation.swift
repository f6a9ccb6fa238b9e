import CryptoPrimitives
import XMLTree
import XMPPStanzas

extension Connection {
    /// Logs in as `request` says: over SASL2 (XEP-0388) with Bind 2 (XEP-0386) in the same
    /// round trip where the server offers them, else RFC 6120 SASL, a restart and a bind. A FAST
    /// token needs SASL2 and FAST on offer: there is nothing to fall back to, so its absence is
    /// an authentication error, never a quiet downgrade. The connection engine's log-in
    /// (`StreamLogIn`) run to its end.
    public func logIn(_ request: LoginRequest) throws(ConnectionError) -> LoginOutcome {
        try StreamLogIn(self, request).run()
    }

    /// What the TLS layer can bind SASL to on this connection.
    var tlsBinding: TLSBindingInfo? {
        stream.transport.tlsSession.map {
            TLSBindingInfo(version: $0.version == .tls13 ? .tls13 : .tls12, tlsUnique: $0.tlsUnique, tlsExporter: $0.tlsExporter)
        }
    }

    var serverCBTypes: [ChannelBindingType]? {
        features.channelBindingTypes?.compactMap(ChannelBindingType.init(rawValue:))
    }

    /// What to send first for `request` against `offer`, with the state to finish the exchange.
    func prepareSASL2(_ request: LoginRequest, offer: SASL2Offer, serverCBTypes: [ChannelBindingType]?) throws(ConnectionError) -> SASL2Attempt {
        let tls = tlsBinding
        var authenticate: SASL2Authenticate
        var scramClient: SCRAMClient?
        var fast: (FASTMechanism, String, [UInt8])?
        var binding: ChannelBinding?
        switch request.credential {
        case .token(let mechanism, let secret):
            guard offer.fastMechanisms?.contains(mechanism.name) ?? false, request.userAgentID != nil else {
                throw .sasl(.fastMechanismUnavailable(mechanism.name))
            }
            var data: [UInt8] = []
            if let type = mechanism.binding {
                guard let bound = tls?.available.first(where: { $0.0 == type }) else {
                    throw .sasl(.fastMechanismUnavailable(mechanism.name))
                }
                data = bound.1
            }
            fast = (mechanism, secret, data)
            let initial = mechanism.initialResponse(username: request.username, token: secret, channelBindingData: data)
            authenticate = SASL2Authenticate(mechanism: mechanism.name, initialResponse: Base64.encode(initial),
                                             fast: .init(invalidate: request.invalidateToken))
        case .password, .keys:
            let credential: SCRAMCredential
            var cachedHash: HashFunction?
            switch request.credential {
            case .keys(let keys): credential = .keys(keys); cachedHash = keys.hash
            case .password(let password): credential = .password(password)
            case .token: throw .protocolViolation("unreachable")
            }
            let choice: MechanismChoice
            do {
                choice = try SASLSelection.choice(
                    offered: offer.mechanisms, tls: tls, cachedKeysHash: cachedHash, usedSCRAMBefore: request.usedSCRAMBefore,
                    allowPlain: stream.transport.isSecure, requireSCRAM: request.requireSCRAM, serverCBTypes: serverCBTypes)
            } catch {
                throw .sasl(error)
            }
            switch choice.mechanism {
            case .plain:
                guard case .password(let password) = credential else { throw .sasl(.noAcceptableMechanism(offered: offer.mechanisms)) }
                authenticate = SASL2Authenticate(mechanism: "PLAIN",
                                                 initialResponse: Base64.encode(PLAINMechanism.message(authcid: request.username, password: password)))
            case .scram(let mechanism, _):
                var client: SCRAMClient
                do {
                    client = try SCRAMClient(mechanism: mechanism, username: request.username, credential: credential,
                                             channelBinding: choice.channelBinding)
                } catch { throw .sasl(error) }
                authenticate = SASL2Authenticate(mechanism: mechanism.name, initialResponse: Base64.encode(client.clientFirstMessage()))
                scramClient = client
                binding = choice.channelBinding
            }
        }
        authenticate.userAgentID = request.userAgentID ?? UserAgentID.make()
        authenticate.software = "xmpp-tools"
        // Bind 2 lets the server pick the resource from the tag and the user agent (Prosody:
        // tag~hash(id); ejabberd: tag.hash(id)), and ejabberd 24.12 replaces every other session
        // whose resource ends in the same hash(id). A token is tied to one user-agent id that
        // every tool of the account shares, so a token log-in sends Bind 2 without a tag: both
        // servers then bind a random resource of their own and replace nothing. Other log-ins
        // send a fresh id and a random tag.
        let sharedAgent: Bool = if case .token = request.credential { true } else { false }
        let useBind2 = request.bind && offer.bind2 && request.resource == nil
        if useBind2 {
            authenticate.bindTag = sharedAgent ? "" : "xmpp-tools." + Hex.encode(Crypto.randomBytes(4))
        }
        var requested: FASTMechanism?
        if request.requestToken, request.userAgentID != nil, let offered = offer.fastMechanisms {
            requested = FASTMechanism.best(offered: offered, tls: tls, serverCBTypes: serverCBTypes)
            authenticate.requestToken = requested?.name
        }
        let plan = SASL2Attempt.Plan(mechanism: authenticate.mechanism, channelBinding: binding, requestedToken: requested?.name)
        return SASL2Attempt(authenticate: authenticate, scramClient: scramClient, fast: fast, useBind2: useBind2,
                            requested: requested, plan: plan)
    }
}
