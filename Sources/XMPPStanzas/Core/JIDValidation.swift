import TextFormats

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
    /// A part exceeded 1023 bytes in its canonical form.
    case tooLong(part: String)
    /// A part held a code point RFC 7622 or its PRECIS profile (or, in the domain, IDNA2008) forbids.
    case forbiddenCharacter(part: String, character: Unicode.Scalar)
    /// A joiner, middle dot, geresh or similar stood where its context rule (RFC 5892 Appendix A) fails.
    case characterOutOfContext(part: String, character: Unicode.Scalar)
    /// Right-to-left text that breaks the Bidi Rule (RFC 5893).
    case mixedDirections(part: String)
    /// The part's mappings do not reach a stable form (RFC 8264 §7).
    case unstable(part: String)
    /// The domain is not a valid domain name or IP literal.
    case invalidDomain(String, reason: String)

    public var description: String {
        switch self {
        case .empty: return "empty address"
        case .emptyLocal: return "empty local part before '@'"
        case .emptyDomain: return "empty domain"
        case .emptyResource: return "empty resource after '/'"
        case .tooLong(let part): return "\(part) longer than \(JID.maxPartBytes) bytes"
        case .forbiddenCharacter(let part, let c): return "\(part) may not contain \(JID.shown(c))"
        case .characterOutOfContext(let part, let c): return "\(part) may not contain \(JID.shown(c)) there"
        case .mixedDirections(let part): return "\(part) mixes right-to-left and left-to-right text"
        case .unstable(let part): return "\(part) has no stable normalized form"
        case .invalidDomain(let d, let reason): return "invalid domain '\(JID.printable(d))': \(reason)"
        }
    }
}

extension JID {
    /// Characters RFC 7622 §3.3.1 excludes from a localpart, beyond what PRECIS excludes.
    static let localForbidden: Set<Unicode.Scalar> = ["\"", "&", "'", "/", ":", "<", ">", "@"]

    /// Mappings shrink text at most threefold (a fullwidth letter, a conjoining jamo triple),
    /// so longer input cannot fit and is refused before any work is spent on it.
    private static let maxInputBytes = 4 * maxPartBytes

    static func validLocal(_ raw: String) throws(JIDError) -> String {
        guard !raw.isEmpty else { throw .emptyLocal }
        if isPlainASCIILocal(raw) { return raw }
        let local = try enforce(.usernameCaseMapped, raw, part: "local part")
        if let c = local.unicodeScalars.first(where: localForbidden.contains) {
            throw .forbiddenCharacter(part: "local part", character: c)
        }
        return local
    }

    /// `raw` as a resourcepart (RFC 7622 §3.4, PRECIS OpaqueString) in its canonical form, for a
    /// resource given on its own (`--resource`); the same checks a JID's resource gets.
    public static func resourcepart(_ raw: String) throws(JIDError) -> String { try validResource(raw) }

    static func validResource(_ raw: String) throws(JIDError) -> String {
        guard !raw.isEmpty else { throw .emptyResource }
        if isPlainASCIIResource(raw) { return raw }
        return try enforce(.opaqueString, raw, part: "resource")
    }

    static func validDomain(_ raw: String) throws(JIDError) -> String {
        // First, before the Character-based checks below: an LDH domain without a trailing dot is
        // returned as it is by them too (each of its Characters is one byte), without walking
        // grapheme clusters.
        if isPlainASCIIDomain(raw) { return raw }
        var d = raw
        if d.hasSuffix(".") { d.removeLast() }
        guard !d.isEmpty else { throw .emptyDomain }
        guard d.utf8.count <= maxInputBytes else { throw .tooLong(part: "domain") }
        if d.hasPrefix("[") {
            // IPv6 literal: hex digits, colons and dots inside brackets.
            guard d.hasSuffix("]"), d.count > 2,
                  d.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
            else { throw .invalidDomain(raw, reason: "not an IPv6 address") }
            return d.lowercased()
        }
        if isPlainASCIIDomain(d) { return d }
        let canonical: String
        do throws(IDNADomain.Failure) {
            canonical = try IDNADomain.canonical(d).unicode
        } catch {
            switch error {
            case .emptyLabel: throw .invalidDomain(raw, reason: "empty label")
            case .notLDH(_, let c): throw .forbiddenCharacter(part: "domain", character: c)
            case .refused(let label, let reason): throw .invalidDomain(raw, reason: "label '\(printable(label))': \(reason)")
            }
        }
        guard canonical.utf8.count <= maxPartBytes else { throw .tooLong(part: "domain") }
        return canonical
    }

    /// A local part PRECIS UsernameCaseMapped leaves as it is: lower-case ASCII letters, digits
    /// and `.`, `_`, `-`, `+` only (PVALID, no mapping, NFC-stable). Skipping the full profile
    /// for it makes a 2,000-contact roster's JIDs (cache, presences) several times cheaper.
    static func isPlainASCIILocal(_ raw: String) -> Bool { isPlainASCIILocal(bytes: raw.utf8) }

    static func isPlainASCIILocal<Bytes: Collection<UInt8>>(bytes raw: Bytes) -> Bool {
        raw.count <= maxPartBytes && raw.allSatisfy { b in
            (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2E || b == 0x5F || b == 0x2D || b == 0x2B
        }
    }

    /// A resource PRECIS OpaqueString leaves as it is: printable ASCII and U+0020 (all PVALID
    /// in FreeformClass, no mapping, left-to-right only).
    static func isPlainASCIIResource(_ raw: String) -> Bool {
        raw.utf8.count <= maxPartBytes && raw.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// A domain IDNA leaves as it is: dot-separated labels of 1–63 lower-case ASCII letters,
    /// digits and inner hyphens, none with `--` in its third and fourth places (A-labels and
    /// other reserved forms take the full conversion).
    static func isPlainASCIIDomain(_ d: String) -> Bool { isPlainASCIIDomain(bytes: d.utf8) }

    static func isPlainASCIIDomain<Bytes: Collection<UInt8>>(bytes d: Bytes) -> Bool {
        guard d.count <= maxPartBytes else { return false }
        // One pass over the bytes, no label arrays.
        var length = 0          // bytes of the current label so far
        var previous: UInt8 = 0 // the label's last byte so far
        var hyphens34 = 0       // hyphens in the current label's third and fourth places
        for byte in d {
            if byte == 0x2E {
                guard (1...63).contains(length), previous != 0x2D, hyphens34 < 2 else { return false }
                length = 0
                hyphens34 = 0
                continue
            }
            guard (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D else { return false }
            if length == 0 && byte == 0x2D { return false }
            length += 1
            if (length == 3 || length == 4) && byte == 0x2D { hyphens34 += 1 }
            previous = byte
        }
        return (1...63).contains(length) && previous != 0x2D && hyphens34 < 2
    }

    /// The A-label form of a canonical domain (IP literals as they are).
    public static func asciiForm(ofDomain domain: String) -> String {
        guard !domain.hasPrefix("["), domain.unicodeScalars.contains(where: { !$0.isASCII }) else { return domain }
        // A canonical domain was accepted by the same conversion, so it cannot fail here.
        return (try? IDNADomain.canonical(domain).ascii) ?? domain
    }

    private static func enforce(_ profile: PRECISProfile, _ raw: String, part: String) throws(JIDError) -> String {
        guard raw.utf8.count <= maxInputBytes else { throw .tooLong(part: part) }
        let enforced: String
        do throws(PRECISProfile.Failure) {
            enforced = try profile.enforce(raw)
        } catch {
            switch error {
            case .empty: throw part == "resource" ? .emptyResource : .emptyLocal
            case .disallowed(let c, _): throw .forbiddenCharacter(part: part, character: c)
            case .context(let c, _): throw .characterOutOfContext(part: part, character: c)
            case .bidiRule: throw .mixedDirections(part: part)
            case .notIdempotent: throw .unstable(part: part)
            }
        }
        guard enforced.utf8.count <= maxPartBytes else { throw .tooLong(part: part) }
        return enforced
    }

    /// A character as an error message shows it: `'x'` when it can be seen as itself (with its
    /// code point when it is not ASCII), `U+XXXX` alone when it cannot (controls, spaces other
    /// than U+0020, format and default-ignorable characters, marks with nothing to sit on).
    static func shown(_ c: Unicode.Scalar) -> String {
        if isInvisible(c) || isMark(c) { return c.codePointLabel }
        return c.isASCII ? "'\(c)'" : "'\(c)' (\(c.codePointLabel))"
    }

    /// Text as an error message shows it: invisible characters, and a mark at the start, as
    /// `U+XXXX`; for callers that quote the address they were given.
    public static func printable(_ text: String) -> String {
        var out = ""
        for (i, c) in text.unicodeScalars.enumerated() {
            if isInvisible(c) || (i == 0 && isMark(c)) { out += c.codePointLabel } else { out.unicodeScalars.append(c) }
        }
        return out
    }

    private static func isInvisible(_ c: Unicode.Scalar) -> Bool {
        if c == " " { return false }
        switch c.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned,
             .spaceSeparator, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return c.properties.isDefaultIgnorableCodePoint || c.properties.isNoncharacterCodePoint
        }
    }

    private static func isMark(_ c: Unicode.Scalar) -> Bool {
        switch c.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }
}
