import TextFormats
import XMPPStanzas

/// SASLprep (RFC 4013, a StringPrep profile of RFC 3454), applied to SCRAM usernames and passwords.
///
/// Applied, in RFC 3454's order: mapping of non-ASCII spaces (table C.1.2) to U+0020 and removal
/// of the characters "commonly mapped to nothing" (table B.1); NFKC normalization (libunistring's,
/// as for JIDs: the server normalizes the password it stores, so `Ⅸ` must hash as `IX`); then rejection of the prohibited output (tables C.2–C.9: control characters, private
/// use, non-characters, surrogates, bidi and tagging characters). Not applied: the bidirectional
/// check (RFC 3454 §6) and the unassigned-code-point check, which only refuse strings.
enum SASLprep {
    /// Why a string was rejected.
    struct Prohibited: Error, Sendable {
        /// The offending scalar, as `U+XXXX` (never the whole string: it may be a password).
        var scalar: String
    }

    /// The prepared form of `input`, or the first prohibited character.
    static func prepare(_ input: String) throws(Prohibited) -> String {
        // Fast path: printable ASCII is unchanged by every step.
        if input.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return input }
        var mapped = String.UnicodeScalarView()
        for scalar in input.unicodeScalars {
            let value = scalar.value
            if mapsToNothing(value) { continue }
            mapped.append(isNonASCIISpace(value) ? " " : scalar)
        }
        let normalized = UnicodeNormalization.nfkc(String(mapped))
        for scalar in normalized.unicodeScalars where isProhibited(scalar.value) {
            throw Prohibited(scalar: scalar.codePointLabel)
        }
        return normalized
    }

    /// RFC 3454 table B.1.
    static func mapsToNothing(_ v: UInt32) -> Bool {
        switch v {
        case 0x00AD, 0x034F, 0x1806, 0x180B...0x180D, 0x200B...0x200D, 0x2060, 0xFE00...0xFE0F, 0xFEFF: true
        default: false
        }
    }

    /// RFC 3454 table C.1.2 (U+200B is in B.1 too; removal wins, as in common implementations).
    static func isNonASCIISpace(_ v: UInt32) -> Bool {
        switch v {
        case 0x00A0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// RFC 3454 tables C.2.1, C.2.2, C.3, C.4, C.5, C.6, C.7, C.8 and C.9.
    static func isProhibited(_ v: UInt32) -> Bool {
        switch v {
        case 0x0000...0x001F, 0x007F: true  // C.2.1 ASCII control
        case 0x0080...0x009F, 0x06DD, 0x070F, 0x180E, 0x200C, 0x200D, 0x2028, 0x2029,
            0x2060...0x2063, 0x206A...0x206F, 0xFEFF, 0xFFF9...0xFFFC, 0x1D173...0x1D17A: true  // C.2.2
        case 0xE000...0xF8FF, 0xF0000...0xFFFFD, 0x100000...0x10FFFD: true  // C.3 private use
        case 0xFDD0...0xFDEF: true  // C.4 non-characters
        case _ where v & 0xFFFE == 0xFFFE: true  // C.4 U+nFFFE and U+nFFFF
        case 0xD800...0xDFFF: true  // C.5 surrogates
        case 0xFFF9...0xFFFD: true  // C.6 inappropriate for plain text
        case 0x2FF0...0x2FFB: true  // C.7 ideographic description
        case 0x0340, 0x0341, 0x200E, 0x200F, 0x202A...0x202E: true  // C.8 display properties
        case 0xE0001, 0xE0020...0xE007F: true  // C.9 tagging
        default: false
        }
    }
}
