import CryptoPrimitives

/// SASL SCRAM Downgrade Protection (XEP-0474): the server puts `h=` into its server-first
/// message, a hash of the mechanisms and channel-binding types it offered; the client hashes
/// what it received and refuses to go on when the two differ.
public enum SSDP {
    /// The string XEP-0474 §3 hashes: the mechanisms sorted and joined by U+001E, then, when the
    /// server advertised XEP-0440 channel-binding types, U+001F and those sorted and joined by U+001E.
    public static func hashInput(mechanisms: [String], channelBindingTypes: [String]?) -> [UInt8] {
        var text = mechanisms.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.joined(separator: "\u{1E}")
        if let channelBindingTypes {
            text += "\u{1F}" + channelBindingTypes.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
                .joined(separator: "\u{1E}")
        }
        return Array(text.utf8)
    }

    /// The `h=` value of a server-first-message, if it has one.
    public static func serverHash(inServerFirst bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        for attribute in text.split(separator: ",", omittingEmptySubsequences: false) where attribute.hasPrefix("h=") {
            return String(attribute.dropFirst(2))
        }
        return nil
    }

    /// Checks `h=` when present: true when it was present and matched, false when absent;
    /// throws `.downgradeDetected` on a mismatch.
    public static func verify(serverFirst: [UInt8], hash: HashFunction, mechanisms: [String],
                              channelBindingTypes: [String]?) throws(SASLError) -> Bool {
        guard let given = serverHash(inServerFirst: serverFirst) else { return false }
        let expected = Crypto.hash(hash, hashInput(mechanisms: mechanisms, channelBindingTypes: channelBindingTypes))
        guard let decoded = Base64.decode(given), Crypto.constantTimeEqual(decoded, expected) else { throw .downgradeDetected }
        return true
    }
}
