import CryptoPrimitives

/// Strict parsers for the server's SCRAM messages (RFC 5802 §7 grammar).
enum SCRAMMessages {
    /// The fewest PBKDF2 iterations accepted (RFC 5802 §5.1: "at least 4096").
    static let minimumIterations = 4096
    /// The most PBKDF2 iterations accepted: more would let a server (or a man in the middle) burn
    /// our CPU. Real servers ask 4096 (ejabberd) or 10000 (Prosody); 600000 is OWASP's figure for
    /// PBKDF2-HMAC-SHA256 and costs under a second here even with SHA-512 (docs/DESIGN-NOTES.md).
    static let maximumIterations = 600_000

    /// A parsed server-first-message.
    struct ServerFirst: Sendable {
        /// The message exactly as received, for AuthMessage.
        var text: String
        /// The combined client + server nonce.
        var nonce: String
        /// The decoded salt, never empty.
        var salt: [UInt8]
        /// The iteration count, within bounds.
        var iterations: Int
    }

    /// Parses server-first-message = [reserved-mext ","] nonce "," salt "," iteration-count ["," extensions],
    /// also accepting a lone `e=` (some servers fail early that way).
    static func parseServerFirst(_ bytes: [UInt8], clientNonce: String) throws(SASLError) -> ServerFirst {
        let text = try utf8(bytes)
        let attributes = try split(text)
        guard let first = attributes.first else { throw .malformedServerMessage("empty server-first-message") }
        switch first.key {
        case "m": throw .malformedServerMessage("unsupported mandatory extension m=")
        case "e": throw .serverError(String(first.value))
        default: break
        }
        guard attributes.count >= 3, attributes[0].key == "r", attributes[1].key == "s", attributes[2].key == "i"
        else { throw .malformedServerMessage("server-first-message must start with r=, s=, i=") }

        let nonce = String(attributes[0].value)
        guard !nonce.isEmpty, nonce.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") }) else {
            throw .malformedServerMessage("nonce is empty or not printable ASCII")
        }
        guard nonce.utf8.count > clientNonce.utf8.count, nonce.utf8.starts(with: clientNonce.utf8) else {
            throw .invalidNonce
        }

        let saltText = attributes[1].value
        guard !saltText.isEmpty else { throw .malformedServerMessage("empty salt") }
        guard let salt = Base64.decode(saltText), !salt.isEmpty else {
            throw .malformedServerMessage("salt is not valid base 64")
        }

        let iterations = try parseIterationCount(attributes[2].value)
        return ServerFirst(text: text, nonce: nonce, salt: salt, iterations: iterations)
    }

    /// Parses server-final-message = (server-error / verifier) ["," extensions]: the signature, or throws `.serverError`.
    static func parseServerFinal(_ bytes: [UInt8]) throws(SASLError) -> [UInt8] {
        let attributes = try split(try utf8(bytes))
        guard let first = attributes.first else { throw .malformedServerMessage("empty server-final-message") }
        switch first.key {
        case "e":
            throw .serverError(String(first.value))
        case "v":
            guard !first.value.isEmpty, let signature = Base64.decode(first.value) else {
                throw .malformedServerMessage("server signature is not valid base 64")
            }
            return signature
        default:
            throw .malformedServerMessage("server-final-message must start with v= or e=")
        }
    }

    /// iteration-count = posit-number, bounded.
    static func parseIterationCount(_ value: Substring) throws(SASLError) -> Int {
        guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw .malformedServerMessage("iteration count is not a number")
        }
        if value == "0" { throw .iterationCountTooLow(0) }
        guard value.first != "0" else { throw .malformedServerMessage("iteration count has a leading zero") }
        guard let count = Int(value) else { throw .iterationCountTooHigh(Int.max) }
        if count < minimumIterations { throw .iterationCountTooLow(count) }
        if count > maximumIterations { throw .iterationCountTooHigh(count) }
        return count
    }

    /// The message as text; SCRAM messages are UTF-8.
    private static func utf8(_ bytes: [UInt8]) throws(SASLError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .malformedServerMessage("not UTF-8")
        }
        return text
    }

    /// Splits `a=value,b=value` into attributes; each key is one ASCII letter.
    private static func split(_ text: String) throws(SASLError) -> [(key: Character, value: Substring)] {
        guard !text.isEmpty else { return [] }
        var result: [(key: Character, value: Substring)] = []
        // Split on bytes, not Characters: a comma followed by a combining mark is one Character.
        for part in text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            guard part.count >= 2, let key = part.first, (key >= 0x41 && key <= 0x5A) || (key >= 0x61 && key <= 0x7A),
                part[part.index(after: part.startIndex)] == UInt8(ascii: "=")
            else { throw .malformedServerMessage("attribute is not of the form x=value") }
            result.append((Character(Unicode.Scalar(key)), Substring(part.dropFirst(2))))
        }
        return result
    }
}
