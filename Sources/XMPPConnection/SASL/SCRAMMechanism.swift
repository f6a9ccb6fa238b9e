import CryptoPrimitives

/// A SCRAM mechanism name (RFC 5802 §4, RFC 7677): SCRAM-SHA-1, -256, -512, each with or without -PLUS.
public struct SCRAMMechanism: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The hash the mechanism is built on.
    public var hash: HashFunction
    /// Whether this is the channel-binding (-PLUS) variant.
    public var plus: Bool

    /// The mechanism from its parts.
    public init(hash: HashFunction, plus: Bool) {
        self.hash = hash
        self.plus = plus
    }

    /// Parses a registered name such as `SCRAM-SHA-256-PLUS`; nil for anything else (case-sensitive).
    public init?(name: String) {
        for hash in HashFunction.allCases {
            let base = "SCRAM-" + hash.rawValue
            if name == base {
                self.init(hash: hash, plus: false)
                return
            }
            if name == base + "-PLUS" {
                self.init(hash: hash, plus: true)
                return
            }
        }
        return nil
    }

    /// The registered name, e.g. `SCRAM-SHA-1-PLUS`.
    public var name: String { "SCRAM-" + hash.rawValue + (plus ? "-PLUS" : "") }

    /// The registered name.
    public var description: String { name }

    /// Decodes from the mechanism name as a single string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let mechanism = SCRAMMechanism(name: name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a SCRAM mechanism: \(name)")
        }
        self = mechanism
    }

    /// Encodes as the mechanism name, a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
