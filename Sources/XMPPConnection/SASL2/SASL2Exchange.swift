import CryptoPrimitives
import XMLTree
import XMPPStanzas

extension Connection {
    /// Logs in as `request` says: over SASL2 (XEP-0388) with Bind 2 (XEP-0386) in the same
    /// round trip where the server offers them, else RFC 6120 SASL, a restart and a bind. A FAST
    /// token needs SASL2 and FAST on offer: there is nothing to fall back to, so its absence is
    /// an authentication error, never a quiet downgrade.
    public func logIn(_ request: LoginRequest) throws(ConnectionError) -> LoginOutcome {
        if streamOpenPending, let expected = request.expectedMechanism, let attempt = Self.pipelinable(request, expected, on: self) {
            return try pipelinedLogIn(request, attempt)
        }
        try openStreamIfPending()
        guard let offer = features.sasl2 else { return try legacyLogIn(request) }
        let attempt = try prepareSASL2(request, offer: offer, serverCBTypes: serverCBTypes)
        try stream.send(attempt.authenticate.element)
        return try finishSASL2(attempt, request: request, offer: offer)
    }

    /// The `<authenticate/>` made for the offer a session remembers: SASL2 with `expected` (its
    /// token's mechanism, or its keys' — a -PLUS one with the best binding this connection has)
    /// and Bind 2, which a server without it answers with no `<bound/>` (`finishSASL2` then
    /// binds). Nil when even that offer would not do: the stream is then opened the usual way.
    private static func pipelinable(_ request: LoginRequest, _ expected: String, on connection: Connection) -> SASL2Attempt? {
        if case .token = request.credential {
            return try? connection.prepareSASL2(request, offer: SASL2Offer(mechanisms: [], bind2: true, fastMechanisms: [expected]),
                                                serverCBTypes: nil)
        }
        let plus = SCRAMMechanism(name: expected)?.plus ?? false
        return try? connection.prepareSASL2(request, offer: SASL2Offer(mechanisms: [expected], bind2: true),
                                            serverCBTypes: plus ? ChannelBindingType.allCases : nil)
    }

    /// The stream header and `attempt` in one write. The features that arrive must lead to the
    /// same choice, else the stream is given up (`rememberedOfferChanged`): it already carries
    /// an `<authenticate/>` the server may read as something else.
    private func pipelinedLogIn(_ request: LoginRequest, _ attempt: SASL2Attempt) throws(ConnectionError) -> LoginOutcome {
        streamOpenPending = false
        features = try stream.open(to: options.domain, from: options.account, then: [attempt.authenticate.element])
        guard let offer = features.sasl2, let now = try? prepareSASL2(request, offer: offer, serverCBTypes: serverCBTypes),
              now.plan == attempt.plan
        else { throw .sasl(.rememberedOfferChanged) }
        return try finishSASL2(attempt, request: request, offer: offer)
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

    private func legacyLogIn(_ request: LoginRequest) throws(ConnectionError) -> LoginOutcome {
        let scram: SCRAMCredential
        switch request.credential {
        case .password(let password): scram = .password(password)
        case .keys(let keys): scram = .keys(keys)
        case .token(let mechanism, _): throw .sasl(.fastMechanismUnavailable(mechanism.name))
        }
        let outcome = try authenticate(username: request.username, credential: scram, usedSCRAMBefore: request.usedSCRAMBefore,
                                       requireSCRAM: request.requireSCRAM)
        let bound = request.bind ? try bind(resource: request.resource) : nil
        return LoginOutcome(mechanism: outcome.mechanism, keys: outcome.keys, token: nil, boundJID: bound, usedSASL2: false,
                            downgradeProtected: downgradeProtected)
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

    /// Reads the server's answers to `attempt` (already sent) up to success and the new features.
    func finishSASL2(_ attempt: SASL2Attempt, request: LoginRequest, offer: SASL2Offer) throws(ConnectionError) -> LoginOutcome {
        let authenticate = attempt.authenticate
        var scramClient = attempt.scramClient
        let fast = attempt.fast, useBind2 = attempt.useBind2, requested = attempt.requested

        var sawChallenge = false
        var ssdp = false
        var answer: SASL2Success?
        while answer == nil {
            let element = try stream.nextElement(deadline: .now + options.timeout)
            let reply: SASL2Reply
            do { reply = try SASL2Reply(element: element) } catch { throw .badStanza(error) }
            switch reply {
            case .challenge(let text):
                guard var client = scramClient else { throw .protocolViolation("unexpected SASL2 challenge for \(authenticate.mechanism)") }
                let data = try Self.decodeBase64(text)
                if !sawChallenge {
                    sawChallenge = true
                    let final: [UInt8]
                    do {
                        ssdp = try SSDP.verify(serverFirst: data, hash: client.mechanism.hash, mechanisms: offer.mechanisms,
                                               channelBindingTypes: features.channelBindingTypes)
                        final = try client.clientFinalMessage(serverFirst: data)
                    } catch { throw .sasl(error) }
                    scramClient = client
                    try stream.send(XMLElement("response", namespace: Namespace.sasl2, children: [.text(Base64.encode(final))]))
                } else {
                    // Server-final as a challenge: verify it, then an empty response.
                    do { try client.verify(serverFinal: data) } catch { throw .sasl(error) }
                    scramClient = client
                    try stream.send(XMLElement("response", namespace: Namespace.sasl2))
                }
            case .failure(let condition, let text):
                if scramClient != nil, !sawChallenge { refusedBeforeChallenge = true }
                throw .authenticationFailed(condition: condition, text: text)
            case .continue(let tasks, _):
                throw .sasl(.tasksRequired(tasks))
            case .success(let s):
                answer = s
            }
        }
        guard let success = answer else { throw .protocolViolation("SASL2 ended without success") }
        if var client = scramClient, !client.isVerified {
            // A server that authenticates us without proving it knows the password is not trusted.
            let serverFinal = try Self.decodeBase64(success.additionalData ?? "")
            do { try client.verify(serverFinal: serverFinal) } catch { throw .sasl(error) }
            scramClient = client
        }
        if let (mechanism, secret, data) = fast {
            let given = try Self.decodeBase64(success.additionalData ?? "")
            guard Crypto.constantTimeEqual(given, mechanism.expectedResponse(token: secret, channelBindingData: data)) else {
                throw .sasl(.fastResponseMismatch)
            }
        }
        mechanism = authenticate.mechanism
        downgradeProtected = ssdp
        // The server sends fresh features right after <success/>, without a stream restart (XEP-0388 §2.5).
        let next = try stream.nextElement(deadline: .now + options.timeout)
        guard StreamFeatures.matches(next) else { throw .protocolViolation("expected stream features after SASL2 success, got <\(next.name)>") }
        features = StreamFeatures(element: next)

        var bound: JID?
        if useBind2 {
            switch success.bind {
            case .bound?:
                guard success.authorizationIdentifier.resource != nil else {
                    throw .protocolViolation("Bind 2 reported a bound resource but the authorization identifier has none")
                }
                try requireOwnDomain(success.authorizationIdentifier)
                boundJID = success.authorizationIdentifier
                bound = success.authorizationIdentifier
            case .failed(let error)?:
                throw .stanzaError(error)
            case nil:
                bound = try bind(resource: nil)
            }
        } else if request.bind {
            bound = try bind(resource: request.resource)
        }
        var issued: (mechanism: FASTMechanism, token: FASTToken)?
        if let token = success.token {
            // A rotation keeps the mechanism in use; an answer to request-token has the one asked for.
            if let requested { issued = (requested, token) } else if let (mechanism, _, _) = fast { issued = (mechanism, token) }
        }
        return LoginOutcome(mechanism: authenticate.mechanism, keys: scramClient?.keys, token: issued, boundJID: bound,
                            usedSASL2: true, downgradeProtected: ssdp)
    }

    static func decodeBase64(_ text: String) throws(ConnectionError) -> [UInt8] {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty || trimmed == "=" { return [] }
        guard let bytes = Base64.decode(trimmed) else { throw .sasl(.malformedServerMessage("invalid base64 in SASL2 data")) }
        return bytes
    }
}
