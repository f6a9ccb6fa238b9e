import CryptoPrimitives

/// Keys that let a client authenticate again without the password (RFC 5802 §3 and §5.1 allow
/// caching ClientKey and ServerKey together with the salt and iteration count they came from).
///
/// Encoded as `{"hash": "SHA-256", "salt": base64, "iterations": n, "client_key": base64,
/// "server_key": base64}`. Secrets: `description` is redacted so they never reach a log.
public struct SCRAMKeys: Sendable, Codable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The hash of the mechanism the keys belong to.
    public var hash: HashFunction
    /// The salt the server sent.
    public var salt: [UInt8]
    /// The iteration count the server sent.
    public var iterations: Int
    /// HMAC(SaltedPassword, "Client Key").
    public var clientKey: [UInt8]
    /// HMAC(SaltedPassword, "Server Key").
    public var serverKey: [UInt8]

    /// Keys from their parts.
    public init(hash: HashFunction, salt: [UInt8], iterations: Int, clientKey: [UInt8], serverKey: [UInt8]) {
        self.hash = hash
        self.salt = salt
        self.iterations = iterations
        self.clientKey = clientKey
        self.serverKey = serverKey
    }

    /// Derives the keys from a password (SASLprep applied), salt and iteration count (RFC 5802 §3).
    /// `iterations` must be at least 1; SCRAM exchanges check the server's count before calling this.
    public static func derive(
        hash: HashFunction, password: String, salt: [UInt8], iterations: Int
    ) throws(SASLError) -> SCRAMKeys {
        let prepared: String
        do {
            prepared = try SASLprep.prepare(password)
        } catch {
            throw .invalidPassword("it contains the prohibited character \(error.scalar)")
        }
        guard iterations >= 1 else { throw .iterationCountTooLow(iterations) }
        guard iterations <= Int(Int32.max) else { throw .iterationCountTooHigh(iterations) }
        let salted = Crypto.pbkdf2(hash, password: Array(prepared.utf8), salt: salt, iterations: iterations)
        return SCRAMKeys(
            hash: hash, salt: salt, iterations: iterations,
            clientKey: Crypto.hmac(hash, key: salted, data: Array("Client Key".utf8)),
            serverKey: Crypto.hmac(hash, key: salted, data: Array("Server Key".utf8)))
    }

    /// H(ClientKey), what the server stores.
    public var storedKey: [UInt8] { Crypto.hash(hash, clientKey) }

    /// Whether the key lengths fit the hash.
    var isWellFormed: Bool {
        clientKey.count == hash.digestLength && serverKey.count == hash.digestLength && !salt.isEmpty
            && iterations >= 1
    }

    /// Redacted: names the hash and iteration count only.
    public var description: String { "SCRAMKeys(\(hash.rawValue), \(iterations) iterations, keys redacted)" }

    /// Redacted, like `description`.
    public var debugDescription: String { description }

    private enum CodingKeys: String, CodingKey {
        case hash, salt, iterations
        case clientKey = "client_key"
        case serverKey = "server_key"
    }

    /// Decodes the JSON shape above; byte strings must be strict base 64.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func bytes(_ key: CodingKeys) throws -> [UInt8] {
            let text = try container.decode(String.self, forKey: key)
            guard let decoded = Base64.decode(text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not base 64")
            }
            return decoded
        }
        self.init(
            hash: try container.decode(HashFunction.self, forKey: .hash), salt: try bytes(.salt),
            iterations: try container.decode(Int.self, forKey: .iterations),
            clientKey: try bytes(.clientKey), serverKey: try bytes(.serverKey))
    }

    /// Encodes the JSON shape above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hash, forKey: .hash)
        try container.encode(Base64.encode(salt), forKey: .salt)
        try container.encode(iterations, forKey: .iterations)
        try container.encode(Base64.encode(clientKey), forKey: .clientKey)
        try container.encode(Base64.encode(serverKey), forKey: .serverKey)
    }
}

/// What a SCRAM client authenticates with: the password, or keys cached from an earlier exchange.
public enum SCRAMCredential: Sendable {
    /// The account's password (SASLprep is applied).
    case password(String)
    /// Keys cached from an earlier exchange with the same hash; PBKDF2 is skipped.
    case keys(SCRAMKeys)
}
