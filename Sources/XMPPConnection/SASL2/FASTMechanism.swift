import CryptoPrimitives

/// A FAST token mechanism (XEP-0484 §2): `HT-<hash>-<binding>`, where the binding is NONE,
/// UNIQ (tls-unique), ENDP (tls-server-end-point) or EXPR (tls-exporter).
public struct FASTMechanism: Sendable, Equatable, Hashable {
    /// The HMAC hash; SHA-256 and SHA-512 are understood.
    public var hash: HashFunction
    /// The channel binding the token's HMAC covers; nil for `-NONE`.
    public var binding: ChannelBindingType?

    /// A mechanism from its parts.
    public init(hash: HashFunction, binding: ChannelBindingType?) {
        self.hash = hash
        self.binding = binding
    }

    /// Parses a name such as `HT-SHA-256-EXPR`; nil for names this client cannot use.
    public init?(name: String) {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "HT", parts[1] == "SHA" else { return nil }
        switch parts[2] {
        case "256": hash = .sha256
        case "512": hash = .sha512
        default: return nil
        }
        switch parts[3] {
        case "NONE": binding = nil
        case "UNIQ": binding = .tlsUnique
        case "ENDP": binding = .tlsServerEndPoint
        case "EXPR": binding = .tlsExporter
        default: return nil
        }
    }

    /// The mechanism's name.
    public var name: String {
        let bits = hash == .sha512 ? "512" : "256"
        let suffix: String = switch binding {
        case nil: "NONE"
        case .tlsUnique: "UNIQ"
        case .tlsServerEndPoint: "ENDP"
        case .tlsExporter: "EXPR"
        }
        return "HT-SHA-\(bits)-\(suffix)"
    }

    /// The initial response: the username, NUL, HMAC(token, "Initiator" || cb-data) (XEP-0484 §3.3).
    public func initialResponse(username: String, token: String, channelBindingData: [UInt8]) -> [UInt8] {
        Array(username.utf8) + [0] + Crypto.hmac(hash, key: Array(token.utf8), data: Array("Initiator".utf8) + channelBindingData)
    }

    /// What the server must answer in `<additional-data/>`: HMAC(token, "Responder" || cb-data).
    public func expectedResponse(token: String, channelBindingData: [UInt8]) -> [UInt8] {
        Crypto.hmac(hash, key: Array(token.utf8), data: Array("Responder".utf8) + channelBindingData)
    }

    /// The best mechanism to ask a token for: channel-bound where both sides can bind (the type
    /// chosen by the same rules as SCRAM -PLUS, XEP-0440 honoured), else `-NONE`; SHA-256 first,
    /// the hash every server offers. Nil when the server lists no usable one.
    public static func best(offered: [String], tls: TLSBindingInfo?, serverCBTypes: [ChannelBindingType]?) -> FASTMechanism? {
        let usable = Set(offered.compactMap(FASTMechanism.init(name:)))
        let binding = SASLSelection.usableBinding(tls: tls, serverCBTypes: serverCBTypes)?.0
        for hash in [HashFunction.sha256, .sha512] {
            if let binding, usable.contains(FASTMechanism(hash: hash, binding: binding)) { return FASTMechanism(hash: hash, binding: binding) }
            if usable.contains(FASTMechanism(hash: hash, binding: nil)) { return FASTMechanism(hash: hash, binding: nil) }
        }
        return nil
    }
}
