import CryptoPrimitives
import XMLTree
import XMPPStanzas

/// An RFC 6120 §6 SASL exchange (PLAIN, or SCRAM with or without channel binding) as messages:
/// the `<auth/>` to send first, then what to send after each answer of the server, until
/// `<success/>`. No I/O: the connection engine's log-in (`StreamLogIn`) runs it for both drivers.
struct SASLExchange {
    /// What follows an answer of the server.
    enum Step {
        /// Send this and wait for the next answer.
        case send(XMLElement)
        /// Authenticated: the stream is to be restarted.
        case succeeded
    }

    private enum State {
        case plain
        /// `<auth/>` sent with the client-first message; the server-first challenge is due.
        case scramFirst(SCRAMClient)
        /// The client-final message sent; `<success/>` with the server-final, or the server-final
        /// as a challenge (RFC 6120 §6.3.10), is due.
        case scramFinal(SCRAMClient)
        /// The server-final came as a challenge and is verified; only `<success/>` is due.
        case verified(SCRAMClient)
    }

    /// The mechanism's name, e.g. `SCRAM-SHA-1-PLUS`.
    let mechanismName: String
    /// The first message: `<auth mechanism='…'>`.
    let initial: XMLElement
    private var state: State
    /// The offer, for the SCRAM downgrade protection (XEP-0474).
    private let offeredMechanisms: [String]
    private let offeredChannelBindings: [String]?
    /// The server refused the exchange before its first SCRAM challenge (Prosody and ejabberd do
    /// so only for an account that does not exist).
    private(set) var refusedBeforeChallenge = false
    /// The server-first message carried a XEP-0474 hash that matched the offer.
    private(set) var downgradeProtected = false

    /// The exchange for `choice` (`SASLSelection`) against `features`.
    init(choice: MechanismChoice, username: String, credential: SCRAMCredential, features: StreamFeatures) throws(ConnectionError) {
        offeredMechanisms = features.mechanisms
        offeredChannelBindings = features.channelBindingTypes
        switch choice.mechanism {
        case .plain:
            guard case .password(let password) = credential else { throw .sasl(.noAcceptableMechanism(offered: features.mechanisms)) }
            mechanismName = "PLAIN"
            state = .plain
            initial = SASLExchange.auth("PLAIN", PLAINMechanism.message(authcid: username, password: password))
        case .scram(let mechanism, _):
            var client: SCRAMClient
            do {
                client = try SCRAMClient(mechanism: mechanism, username: username, credential: credential,
                                         channelBinding: choice.channelBinding)
            } catch { throw .sasl(error) }
            mechanismName = mechanism.name
            initial = SASLExchange.auth(mechanism.name, client.clientFirstMessage())
            state = .scramFirst(client)
        }
    }

    /// SCRAM keys that can authenticate again without the password (nil after PLAIN).
    var keys: SCRAMKeys? {
        switch state {
        case .plain: return nil
        case .scramFirst(let c), .scramFinal(let c), .verified(let c): return c.keys
        }
    }

    /// What to do after the server's `answer`; a `<failure/>` is `authenticationFailed`, and a
    /// server that claims success without proving it knows the password is refused.
    mutating func receive(_ answer: XMLElement) throws(ConnectionError) -> Step {
        if case .scramFirst = state { refusedBeforeChallenge = answer.name == "failure" }
        try SASLExchange.checkFailure(answer)
        switch state {
        case .plain:
            guard answer.name == "success" else { throw .protocolViolation("unexpected <\(answer.name)/> during PLAIN") }
            return .succeeded
        case .scramFirst(var client):
            guard answer.name == "challenge" else { throw .protocolViolation("expected a SASL challenge, got <\(answer.name)/>") }
            let final: [UInt8]
            do {
                let serverFirst = try SASLExchange.decode(answer)
                downgradeProtected = try SSDP.verify(serverFirst: serverFirst, hash: client.mechanism.hash,
                                                     mechanisms: offeredMechanisms, channelBindingTypes: offeredChannelBindings)
                final = try client.clientFinalMessage(serverFirst: serverFirst)
            } catch { throw .sasl(error) }
            state = .scramFinal(client)
            return .send(XMLElement("response", namespace: Namespace.sasl, children: [.text(Base64.encode(final))]))
        case .scramFinal(var client):
            if answer.name == "challenge" {
                // Server-final sent as a challenge (RFC 6120 §6.3.10 allows it): verify, then an empty response.
                do { try client.verify(serverFinal: try SASLExchange.decode(answer)) } catch { throw .sasl(error) }
                state = .verified(client)
                return .send(XMLElement("response", namespace: Namespace.sasl))
            }
            guard answer.name == "success" else { throw .protocolViolation("expected SASL success, got <\(answer.name)/>") }
            do { try client.verify(serverFinal: try SASLExchange.decode(answer)) } catch { throw .sasl(error) }
            state = .verified(client)
            return .succeeded
        case .verified:
            guard answer.name == "success" else { throw .protocolViolation("expected SASL success, got <\(answer.name)/>") }
            return .succeeded
        }
    }

    private static func auth(_ mechanism: String, _ message: [UInt8]) -> XMLElement {
        XMLElement("auth", namespace: Namespace.sasl, attributes: ["mechanism": mechanism], children: [.text(Base64.encode(message))])
    }

    static func decode(_ element: XMLElement) throws(SASLError) -> [UInt8] {
        let text = element.text.trimmingWhitespace()
        if text.isEmpty || text == "=" { return [] }
        guard let bytes = Base64.decode(text) else { throw .malformedServerMessage("invalid base64 in <\(element.name)/>") }
        return bytes
    }

    static func checkFailure(_ element: XMLElement) throws(ConnectionError) {
        guard element.name == "failure", element.namespace == Namespace.sasl else { return }
        let condition = element.elements.first { $0.name != "text" }?.name ?? "not-authorized"
        let text = element.child("text")?.text
        throw .authenticationFailed(condition: condition, text: (text?.isEmpty ?? true) ? nil : text)
    }
}
