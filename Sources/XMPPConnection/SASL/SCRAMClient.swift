import CryptoPrimitives

/// The client side of one SCRAM exchange (RFC 5802, RFC 7677), as a value-type state machine:
/// `clientFirstMessage()`, then `clientFinalMessage(serverFirst:)`, then `verify(serverFinal:)`,
/// which must be called: authentication has succeeded only once it returns.
public struct SCRAMClient: Sendable {
    /// Where the exchange is.
    private enum State: Sendable {
        case initial
        case sentFirst
        case sentFinal(expectedServerSignature: [UInt8])
        case verified
    }

    /// The mechanism in use.
    public let mechanism: SCRAMMechanism
    /// The channel binding announced in the gs2 header.
    public let channelBinding: ChannelBinding
    private let credential: SCRAMCredential
    private let clientNonce: String
    /// client-first-message-bare: `n=<escaped user>,r=<nonce>`.
    private let clientFirstBare: String
    private var state: State = .initial
    private var derivedKeys: SCRAMKeys?

    /// Prepares an exchange. `username` gets SASLprep and `=2C`/`=3D` escaping; `clientNonce` is
    /// for tests only (default: 24 random bytes in base 64). Throws when the username or password
    /// cannot be prepared, the keys belong to another hash, or the mechanism's -PLUS-ness and
    /// `channelBinding` disagree.
    public init(
        mechanism: SCRAMMechanism, username: String, credential: SCRAMCredential,
        channelBinding: ChannelBinding, clientNonce: String? = nil
    ) throws(SASLError) {
        switch (mechanism.plus, channelBinding) {
        case (true, .bound), (false, .unsupported), (false, .supportedButNotUsed): break
        default: throw .channelBindingUnavailable
        }
        switch credential {
        case .password(let password):
            do {
                _ = try SASLprep.prepare(password)
            } catch {
                throw .invalidPassword("it contains the prohibited character \(error.scalar)")
            }
        case .keys(let keys):
            guard keys.hash == mechanism.hash else {
                throw .invalidCredential("keys for SCRAM-\(keys.hash.rawValue) cannot be used with \(mechanism.name)")
            }
            guard keys.isWellFormed else { throw .invalidCredential("cached keys are malformed") }
        }
        let preparedUser: String
        do {
            preparedUser = try SASLprep.prepare(username)
        } catch {
            throw .invalidUsername("it contains the prohibited character \(error.scalar)")
        }
        guard !preparedUser.isEmpty else { throw .invalidUsername("it is empty") }
        let nonce = clientNonce ?? Base64.encode(Crypto.randomBytes(24))
        guard !nonce.isEmpty, nonce.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") }) else {
            throw .invalidNonce
        }
        self.mechanism = mechanism
        self.channelBinding = channelBinding
        self.credential = credential
        self.clientNonce = nonce
        self.clientFirstBare = "n=" + Self.escape(preparedUser) + ",r=" + nonce
    }

    /// The client-first-message: gs2 header + `n=user,r=nonce`. Calling it again returns the same bytes.
    public mutating func clientFirstMessage() -> [UInt8] {
        if case .initial = state { state = .sentFirst }
        return Array((channelBinding.gs2Header + clientFirstBare).utf8)
    }

    /// Checks the server-first-message strictly, derives (or checks cached) keys and returns the
    /// client-final-message with the proof.
    public mutating func clientFinalMessage(serverFirst: [UInt8]) throws(SASLError) -> [UInt8] {
        guard case .sentFirst = state else { throw .outOfOrder("clientFinalMessage needs clientFirstMessage first, once") }
        let first = try SCRAMMessages.parseServerFirst(serverFirst, clientNonce: clientNonce)
        let keys: SCRAMKeys
        switch credential {
        case .password(let password):
            keys = try SCRAMKeys.derive(
                hash: mechanism.hash, password: password, salt: first.salt, iterations: first.iterations)
        case .keys(let cached):
            guard cached.salt == first.salt, cached.iterations == first.iterations else { throw .cachedKeysStale }
            keys = cached
        }
        let withoutProof = "c=" + channelBinding.channelBindingAttribute + ",r=" + first.nonce
        let authMessage = Array((clientFirstBare + "," + first.text + "," + withoutProof).utf8)
        let clientSignature = Crypto.hmac(mechanism.hash, key: keys.storedKey, data: authMessage)
        let proof = zip(keys.clientKey, clientSignature).map { $0 ^ $1 }
        derivedKeys = keys
        state = .sentFinal(
            expectedServerSignature: Crypto.hmac(mechanism.hash, key: keys.serverKey, data: authMessage))
        return Array((withoutProof + ",p=" + Base64.encode(proof)).utf8)
    }

    /// Checks the server-final-message (the data of `<success/>`): `e=` throws `.serverError`, a
    /// wrong `v=` throws `.serverSignatureMismatch`. Compared in constant time.
    public mutating func verify(serverFinal: [UInt8]) throws(SASLError) {
        guard case .sentFinal(let expected) = state else { throw .outOfOrder("verify needs clientFinalMessage first, once") }
        let signature = try SCRAMMessages.parseServerFinal(serverFinal)
        guard Crypto.constantTimeEqual(signature, expected) else { throw .serverSignatureMismatch }
        state = .verified
    }

    /// Whether `verify(serverFinal:)` has succeeded: the server proved it knows the keys.
    public var isVerified: Bool {
        if case .verified = state { return true }
        return false
    }

    /// The keys in use, once server-first has been accepted: derived from the password, or the
    /// cached ones. Cache them only after `verify(serverFinal:)` succeeded.
    public var keys: SCRAMKeys? { derivedKeys }

    /// saslname escaping (RFC 5802 §5.1): `=` → `=3D`, `,` → `=2C`.
    static func escape(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "=": out += "=3D"
            case ",": out += "=2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
