import CryptoPrimitives
import XMLTree
import XMPPStanzas

/// A XEP-0388 SASL2 exchange after its `<authenticate/>` (`SASL2Attempt`) as messages: what to
/// send after each answer of the server, until `<success/>`, which is checked (a SCRAM server
/// must prove it knows the password, a FAST one the token). No I/O, so every driver of the
/// connection engine (`StreamLogIn`) runs the same exchange.
struct SASL2Answers {
    /// What follows an answer of the server.
    enum Step {
        /// Send this and wait for the next answer.
        case send(XMLElement)
        /// Authenticated and checked; the server's fresh features follow without a restart.
        case succeeded(SASL2Success)
    }

    let attempt: SASL2Attempt
    private let offer: SASL2Offer
    /// The channel-binding types the stream's features named (for XEP-0474's hash).
    private let channelBindingTypes: [String]?
    private var scramClient: SCRAMClient?
    private var sawChallenge = false
    /// The server refused the exchange before its first SCRAM challenge.
    private(set) var refusedBeforeChallenge = false
    /// The server-first message carried a XEP-0474 hash that matched the offer.
    private(set) var downgradeProtected = false

    init(_ attempt: SASL2Attempt, offer: SASL2Offer, channelBindingTypes: [String]?) {
        self.attempt = attempt
        self.offer = offer
        self.channelBindingTypes = channelBindingTypes
        scramClient = attempt.scramClient
    }

    /// SCRAM keys that authenticate again without the password (nil after PLAIN or a token).
    var keys: SCRAMKeys? { scramClient?.keys }

    /// What to do after the server's `element`; a `<failure/>` is `authenticationFailed`.
    mutating func receive(_ element: XMLElement) throws(ConnectionError) -> Step {
        let reply: SASL2Reply
        do { reply = try SASL2Reply(element: element) } catch { throw .badStanza(error) }
        switch reply {
        case .challenge(let text):
            guard var client = scramClient else {
                throw .protocolViolation("unexpected SASL2 challenge for \(attempt.authenticate.mechanism)")
            }
            let data = try SASL2Answers.decodeBase64(text)
            if !sawChallenge {
                sawChallenge = true
                let final: [UInt8]
                do {
                    downgradeProtected = try SSDP.verify(serverFirst: data, hash: client.mechanism.hash, mechanisms: offer.mechanisms,
                                                         channelBindingTypes: channelBindingTypes)
                    final = try client.clientFinalMessage(serverFirst: data)
                } catch { throw .sasl(error) }
                scramClient = client
                return .send(XMLElement("response", namespace: Namespace.sasl2, children: [.text(Base64.encode(final))]))
            }
            // Server-final as a challenge: verify it, then an empty response.
            do { try client.verify(serverFinal: data) } catch { throw .sasl(error) }
            scramClient = client
            return .send(XMLElement("response", namespace: Namespace.sasl2))
        case .failure(let condition, let text):
            if scramClient != nil, !sawChallenge { refusedBeforeChallenge = true }
            throw .authenticationFailed(condition: condition, text: text)
        case .continue(let tasks, _):
            throw .sasl(.tasksRequired(tasks))
        case .success(let success):
            if var client = scramClient, !client.isVerified {
                // A server that authenticates us without proving it knows the password is not trusted.
                let serverFinal = try SASL2Answers.decodeBase64(success.additionalData ?? "")
                do { try client.verify(serverFinal: serverFinal) } catch { throw .sasl(error) }
                scramClient = client
            }
            if let (mechanism, secret, data) = attempt.fast {
                let given = try SASL2Answers.decodeBase64(success.additionalData ?? "")
                guard Crypto.constantTimeEqual(given, mechanism.expectedResponse(token: secret, channelBindingData: data)) else {
                    throw .sasl(.fastResponseMismatch)
                }
            }
            return .succeeded(success)
        }
    }

    /// The FAST token the server issued with `success`, with its mechanism: a rotation keeps
    /// the mechanism in use; an answer to request-token has the one asked for.
    func issuedToken(_ success: SASL2Success) -> (mechanism: FASTMechanism, token: FASTToken)? {
        guard let token = success.token else { return nil }
        if let requested = attempt.requested { return (requested, token) }
        if let (mechanism, _, _) = attempt.fast { return (mechanism, token) }
        return nil
    }

    static func decodeBase64(_ text: String) throws(ConnectionError) -> [UInt8] {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty || trimmed == "=" { return [] }
        guard let bytes = Base64.decode(trimmed) else { throw .sasl(.malformedServerMessage("invalid base64 in SASL2 data")) }
        return bytes
    }
}
