/// Why a JID was refused (RFC 7622).
public enum JIDError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The whole address was empty.
    case empty
    /// The localpart (before '@') was present but empty.
    case emptyLocal
    /// The domain was empty.
    case emptyDomain
    /// The resource (after '/') was present but empty.
    case emptyResource
    /// A part exceeded 1023 bytes.
    case tooLong(part: String)
    /// A part held a character RFC 7622 forbids there.
    case forbiddenCharacter(part: String, character: Character)
    /// The domain is not a valid host name or IP literal.
    case invalidDomain(String)

    public var description: String {
        switch self {
        case .empty: return "empty address"
        case .emptyLocal: return "empty local part before '@'"
        case .emptyDomain: return "empty domain"
        case .emptyResource: return "empty resource after '/'"
        case .tooLong(let part): return "\(part) longer than \(JID.maxPartBytes) bytes"
        case .forbiddenCharacter(let part, let c):
            let shown = c.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
                ? "'\(c)'" : "U+" + String(c.unicodeScalars.first.map { $0.value } ?? 0, radix: 16, uppercase: true)
            return "\(part) may not contain \(shown)"
        case .invalidDomain(let d): return "invalid domain '\(d)'"
        }
    }
}

extension JID {
    /// Characters RFC 7622 §3.3.1 excludes from a localpart.
    static let localForbidden: Set<Character> = ["\"", "&", "'", "/", ":", "<", ">", "@"]

    static func validLocal(_ raw: String) throws(JIDError) -> String {
        guard !raw.isEmpty else { throw .emptyLocal }
        let folded = raw.lowercased()
        for c in folded {
            if localForbidden.contains(c) || c.isWhitespace || isControl(c) {
                throw .forbiddenCharacter(part: "local part", character: c)
            }
        }
        guard folded.utf8.count <= maxPartBytes else { throw .tooLong(part: "local part") }
        return folded
    }

    static func validDomain(_ raw: String) throws(JIDError) -> String {
        var d = raw
        if d.hasSuffix(".") { d.removeLast() }
        guard !d.isEmpty else { throw .emptyDomain }
        guard d.utf8.count <= maxPartBytes else { throw .tooLong(part: "domain") }
        if d.hasPrefix("[") {
            // IPv6 literal: hex digits, colons and dots inside brackets.
            guard d.hasSuffix("]"), d.count > 2,
                  d.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
            else { throw .invalidDomain(raw) }
            return d.lowercased()
        }
        let folded = d.lowercased()
        for label in folded.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty, label.utf8.count <= 63 else { throw .invalidDomain(raw) }
            for c in label {
                if c.isWhitespace || isControl(c) { throw .forbiddenCharacter(part: "domain", character: c) }
                if c.isASCII && !(c.isLetter || c.isNumber || c == "-" || c == "_") {
                    throw .forbiddenCharacter(part: "domain", character: c)
                }
            }
        }
        return folded
    }

    static func validResource(_ raw: String) throws(JIDError) -> String {
        guard !raw.isEmpty else { throw .emptyResource }
        guard raw.utf8.count <= maxPartBytes else { throw .tooLong(part: "resource") }
        for c in raw where isControl(c) {
            throw .forbiddenCharacter(part: "resource", character: c)
        }
        return raw
    }

    private static func isControl(_ c: Character) -> Bool {
        c.unicodeScalars.contains { s in
            s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.properties.generalCategory == .format && s.value == 0xFEFF
        }
    }
}
