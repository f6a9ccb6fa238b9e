import CryptoPrimitives
import XMLTree
import XMPPStanzas

/// Logging in on an open stream (`StreamOpening`'s `Connection`) as steps that never wait: the
/// stream header under TLS if the opening left it (with the `<authenticate/>` in the same write
/// when the request expects an offer, `LoginRequest.expectedMechanism`), then SASL2 (XEP-0388)
/// with Bind 2 (XEP-0386) where offered, else RFC 6120 SASL and a stream restart, then the
/// resource binding (RFC 6120 §7) the request asks for. `Connection.logIn`, `authenticate` and
/// `bind` run it blocking; `PolledSetup` on a poll loop. One owner; not Sendable.
final class StreamLogIn: StreamSteps {
    private enum State {
        /// A stream header is sent; its features are due, then `After`.
        case awaitingFeatures(After)
        case sasl(SASLExchange)
        case sasl2(SASL2Answers)
        /// SASL2 succeeded: the fresh features are due (no restart, XEP-0388 §2.5).
        case sasl2Features(SASL2Answers, SASL2Success)
        case binding(id: String)
        case startingSession(id: String)
        case done
    }

    /// What the features that are due lead to.
    private enum After {
        /// The mechanism is chosen from them.
        case choosing
        /// They must lead to the `<authenticate/>` already sent with the header, or the stream is
        /// given up (`rememberedOfferChanged`): the server may read it as something else.
        case pipelined(SASL2Attempt)
        /// RFC 6120 SASL succeeded and the stream restarted: the binding, if asked.
        case authenticated
    }

    private let connection: Connection
    private let request: LoginRequest
    /// RFC 6120 SASL even where SASL2 is offered.
    private let saslOnly: Bool
    private var state: State
    private var outcome = LoginOutcome(mechanism: "", keys: nil, token: nil, boundJID: nil, usedSASL2: false,
                                       downgradeProtected: false)
    private(set) var deadline: ContinuousClock.Instant

    /// Starts logging in on `connection` as `request` says; `saslOnly` keeps to RFC 6120 SASL.
    init(_ connection: Connection, _ request: LoginRequest, saslOnly: Bool = false) throws(ConnectionError) {
        self.connection = connection
        self.request = request
        self.saslOnly = saslOnly
        deadline = .now + connection.options.timeout
        state = .done
        state = try begin()
    }

    /// Binds `resource` on an authenticated `connection` (nil: the tools' own random one).
    init(binding connection: Connection, resource: String?) throws(ConnectionError) {
        self.connection = connection
        request = LoginRequest(username: "", credential: .password(""), usedSCRAMBefore: false, resource: resource)
        saslOnly = true
        deadline = .now + connection.options.timeout
        state = .done
        state = try bind(resource: resource)
    }

    private var stream: XMPPStream { connection.stream }
    private var options: ConnectionOptions { connection.options }

    var fileDescriptor: Int32 { stream.transport.fileDescriptor }
    var wantsWrite: Bool { false }

    func advance() throws(ConnectionError) -> LoginOutcome? {
        while true {
            if case .done = state { return outcome }
            guard let next = try step() else { return nil }
            state = next
            deadline = .now + options.timeout
        }
    }

    func expire() throws(ConnectionError) { throw .timedOut("waiting for the server") }

    // MARK: - Steps

    private func begin() throws(ConnectionError) -> State {
        guard connection.streamOpenPending else { return try choose() }
        connection.streamOpenPending = false
        if !saslOnly, let expected = request.expectedMechanism, let attempt = pipelinable(expected) {
            try stream.sendHeader(to: options.domain, from: options.account, then: [attempt.authenticate.element])
            return .awaitingFeatures(.pipelined(attempt))
        }
        try stream.sendHeader(to: options.domain, from: options.account)
        return .awaitingFeatures(.choosing)
    }

    /// The `<authenticate/>` made for the offer a session remembers: SASL2 with `expected` (its
    /// token's mechanism, or its keys' — a -PLUS one with the best binding this connection has)
    /// and Bind 2, which a server without it answers with no `<bound/>` (the binding then
    /// follows). Nil when even that offer would not do: the stream is then opened the usual way.
    private func pipelinable(_ expected: String) -> SASL2Attempt? {
        if case .token = request.credential {
            return try? connection.prepareSASL2(request, offer: SASL2Offer(mechanisms: [], bind2: true, fastMechanisms: [expected]),
                                                serverCBTypes: nil)
        }
        let plus = SCRAMMechanism(name: expected)?.plus ?? false
        return try? connection.prepareSASL2(request, offer: SASL2Offer(mechanisms: [expected], bind2: true),
                                            serverCBTypes: plus ? ChannelBindingType.allCases : nil)
    }

    /// The first message for the stream's features: SASL2's `<authenticate/>` where offered
    /// (unless `saslOnly`), else RFC 6120 SASL's `<auth/>`. A FAST token needs SASL2.
    private func choose() throws(ConnectionError) -> State {
        let features = connection.features
        if !saslOnly, let offer = features.sasl2 {
            let attempt = try connection.prepareSASL2(request, offer: offer, serverCBTypes: connection.serverCBTypes)
            try stream.send(attempt.authenticate.element)
            return .sasl2(SASL2Answers(attempt, offer: offer, channelBindingTypes: features.channelBindingTypes))
        }
        let credential: SCRAMCredential
        var cachedHash: HashFunction?
        switch request.credential {
        case .password(let password): credential = .password(password)
        case .keys(let keys): credential = .keys(keys); cachedHash = keys.hash
        case .token(let mechanism, _): throw .sasl(.fastMechanismUnavailable(mechanism.name))
        }
        let choice: MechanismChoice
        do {
            choice = try SASLSelection.choice(
                offered: features.mechanisms, tls: connection.tlsBinding, cachedKeysHash: cachedHash,
                usedSCRAMBefore: request.usedSCRAMBefore, allowPlain: stream.transport.isSecure,
                requireSCRAM: request.requireSCRAM, serverCBTypes: connection.serverCBTypes)
        } catch {
            throw .sasl(error)
        }
        let exchange = try SASLExchange(choice: choice, username: request.username, credential: credential, features: features)
        try stream.send(exchange.initial)
        return .sasl(exchange)
    }

    /// The next state, or nil when the socket has nothing for the step under way.
    private func step() throws(ConnectionError) -> State? {
        switch state {
        case .awaitingFeatures(let after):
            guard let features = try arrived({ () throws(ConnectionError) in try stream.features(deadline: .now) }) else { return nil }
            connection.features = features
            switch after {
            case .choosing:
                return try choose()
            case .pipelined(let attempt):
                guard let offer = features.sasl2,
                      let now = try? connection.prepareSASL2(request, offer: offer, serverCBTypes: connection.serverCBTypes),
                      now.plan == attempt.plan
                else { throw .sasl(.rememberedOfferChanged) }
                return .sasl2(SASL2Answers(attempt, offer: offer, channelBindingTypes: features.channelBindingTypes))
            case .authenticated:
                return request.bind ? try bind(resource: request.resource) : .done
            }
        case .sasl(var exchange):
            guard let answer = try nextElement() else { return nil }
            let step: SASLExchange.Step
            do { step = try exchange.receive(answer) } catch {
                connection.refusedBeforeChallenge = exchange.refusedBeforeChallenge
                throw error
            }
            switch step {
            case .send(let next):
                try stream.send(next)
                return .sasl(exchange)
            case .succeeded:
                connection.refusedBeforeChallenge = false
                connection.downgradeProtected = exchange.downgradeProtected
                connection.mechanism = exchange.mechanismName
                outcome = LoginOutcome(mechanism: exchange.mechanismName, keys: exchange.keys, token: nil, boundJID: nil,
                                       usedSASL2: false, downgradeProtected: exchange.downgradeProtected)
                try stream.sendHeader(to: options.domain, from: options.account)
                return .awaitingFeatures(.authenticated)
            }
        case .sasl2(var answers):
            guard let element = try nextElement() else { return nil }
            let step: SASL2Answers.Step
            do { step = try answers.receive(element) } catch {
                if answers.refusedBeforeChallenge { connection.refusedBeforeChallenge = true }
                throw error
            }
            switch step {
            case .send(let next):
                try stream.send(next)
                return .sasl2(answers)
            case .succeeded(let success):
                let mechanism = answers.attempt.authenticate.mechanism
                connection.mechanism = mechanism
                connection.downgradeProtected = answers.downgradeProtected
                outcome = LoginOutcome(mechanism: mechanism, keys: answers.keys, token: answers.issuedToken(success), boundJID: nil,
                                       usedSASL2: true, downgradeProtected: answers.downgradeProtected)
                return .sasl2Features(answers, success)
            }
        case .sasl2Features(let answers, let success):
            guard let next = try nextElement() else { return nil }
            guard StreamFeatures.matches(next) else {
                throw .protocolViolation("expected stream features after SASL2 success, got <\(next.name)>")
            }
            connection.features = StreamFeatures(element: next)
            guard answers.attempt.useBind2 else { return request.bind ? try bind(resource: request.resource) : .done }
            switch success.bind {
            case .bound?:
                guard success.authorizationIdentifier.resource != nil else {
                    throw .protocolViolation("Bind 2 reported a bound resource but the authorization identifier has none")
                }
                try connection.requireOwnDomain(success.authorizationIdentifier)
                connection.boundJID = success.authorizationIdentifier
                outcome.boundJID = success.authorizationIdentifier
                return .done
            case .failed(let error)?:
                throw .stanzaError(error)
            case nil:
                return try bind(resource: nil)
            }
        case .binding(let id):
            guard let reply = try reply(to: id) else { return nil }
            outcome.boundJID = try connection.takeBound(reply)
            guard let session = connection.sessionRequest() else { return .done }
            try connection.send([session.element])
            return .startingSession(id: session.id)
        case .startingSession(let id):
            guard try reply(to: id) != nil else { return nil }
            return .done
        case .done:
            return .done
        }
    }

    /// Sends the bind request (RFC 6120 §7.6/7.7).
    private func bind(resource: String?) throws(ConnectionError) -> State {
        let request = try connection.bindRequest(resource: resource)
        try connection.send([request.element])
        return .binding(id: request.id)
    }

    /// The next element if one has arrived; server pings are answered on the way.
    private func nextElement() throws(ConnectionError) -> XMLElement? {
        while let element = try arrived({ () throws(ConnectionError) in try stream.nextElement(deadline: .now) }) {
            if try connection.answerIfPing(element) { continue }
            return element
        }
        return nil
    }

    /// The reply to `id` if it has arrived; other stanzas before it are kept for whoever asks
    /// for them next (`Connection.nextStanza`, `PolledConnection.readAvailable`).
    private func reply(to id: String) throws(ConnectionError) -> Iq? {
        while let element = try nextElement() {
            if Connection.isReply(element, to: id) { return try Connection.reply(from: element) }
            connection.keep(element)
        }
        return nil
    }
}
