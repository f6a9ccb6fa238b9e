import CLibIDN2

/// The PRECIS derived property of a code point (RFC 8264 §8), computed from Unicode data in the
/// order §8 gives; `reason` names the rule that decided, as precis-i18n reports it.
struct PRECISDerivedProperty: Equatable {
    enum Value: Equatable {
        case pValid
        /// PVALID in the FreeformClass, DISALLOWED in the IdentifierClass.
        case freePValid
        case contextJ
        case contextO
        case disallowed
        case unassigned
    }

    let value: Value
    let reason: String

    init(_ c: Unicode.Scalar) {
        (value, reason) = Self.derive(c)
    }

    private static func derive(_ c: Unicode.Scalar) -> (Value, String) {
        let v = c.value
        if let e = exceptions[v] { return (e, "exceptions") }
        // BackwardCompatible (RFC 8264 §9.7) is empty.
        if UnicodeData.isCategory(c, in: UInt32(UC_CATEGORY_MASK_Cn)), !UnicodeData.isNoncharacter(c) {
            return (.unassigned, "unassigned")
        }
        if (0x21...0x7E).contains(v) { return (.pValid, "ascii7") }
        if v == 0x200C || v == 0x200D { return (.contextJ, "join_control") }
        if isOldHangulJamo(v) { return (.disallowed, "old_hangul_jamo") }
        if UnicodeData.isDefaultIgnorable(c) || UnicodeData.isNoncharacter(c) {
            return (.disallowed, "precis_ignorable_properties")
        }
        if UnicodeData.isCategory(c, in: UInt32(UC_CATEGORY_MASK_Cc)) { return (.disallowed, "controls") }
        if UnicodeData.nfkc([c]) != [c] { return (.freePValid, "has_compat") }
        let category = UnicodeData.category(c)
        if category & letterDigits != 0 { return (.pValid, "letter_digits") }
        if category & otherLetterDigits != 0 { return (.freePValid, "other_letter_digits") }
        if UnicodeData.isSpaceSeparator(c) { return (.freePValid, "spaces") }
        if category & symbols != 0 { return (.freePValid, "symbols") }
        if category & punctuation != 0 { return (.freePValid, "punctuation") }
        return (.disallowed, "other")
    }

    private static let letterDigits = UInt32(UC_CATEGORY_MASK_Ll) | UInt32(UC_CATEGORY_MASK_Lu)
        | UInt32(UC_CATEGORY_MASK_Lo) | UInt32(UC_CATEGORY_MASK_Nd) | UInt32(UC_CATEGORY_MASK_Lm)
        | UInt32(UC_CATEGORY_MASK_Mn) | UInt32(UC_CATEGORY_MASK_Mc)
    private static let otherLetterDigits = UInt32(UC_CATEGORY_MASK_Lt) | UInt32(UC_CATEGORY_MASK_Nl)
        | UInt32(UC_CATEGORY_MASK_No) | UInt32(UC_CATEGORY_MASK_Me)
    private static let symbols = UInt32(UC_CATEGORY_MASK_Sm) | UInt32(UC_CATEGORY_MASK_Sc)
        | UInt32(UC_CATEGORY_MASK_Sk) | UInt32(UC_CATEGORY_MASK_So)
    private static let punctuation = UInt32(UC_CATEGORY_MASK_Pc) | UInt32(UC_CATEGORY_MASK_Pd)
        | UInt32(UC_CATEGORY_MASK_Ps) | UInt32(UC_CATEGORY_MASK_Pe) | UInt32(UC_CATEGORY_MASK_Pi)
        | UInt32(UC_CATEGORY_MASK_Pf) | UInt32(UC_CATEGORY_MASK_Po)

    /// Conjoining Hangul Jamo (Hangul_Syllable_Type L, V or T): these ranges are fixed by
    /// Unicode's stability policy for Hangul.
    private static func isOldHangulJamo(_ v: UInt32) -> Bool {
        (0x1100...0x11FF).contains(v) || (0xA960...0xA97C).contains(v)
            || (0xD7B0...0xD7C6).contains(v) || (0xD7CB...0xD7FB).contains(v)
    }

    /// RFC 5892 §2.6, which RFC 8264 §9.6 takes over unchanged.
    private static let exceptions: [UInt32: Value] = {
        var table: [UInt32: Value] = [
            0x00DF: .pValid, 0x03C2: .pValid, 0x06FD: .pValid, 0x06FE: .pValid, 0x0F0B: .pValid, 0x3007: .pValid,
            0x00B7: .contextO, 0x0375: .contextO, 0x05F3: .contextO, 0x05F4: .contextO, 0x30FB: .contextO,
            0x0640: .disallowed, 0x07FA: .disallowed, 0x302E: .disallowed, 0x302F: .disallowed,
            0x3031: .disallowed, 0x3032: .disallowed, 0x3033: .disallowed, 0x3034: .disallowed,
            0x3035: .disallowed, 0x303B: .disallowed,
        ]
        for digit in UInt32(0x0660)...0x0669 { table[digit] = .contextO }
        for digit in UInt32(0x06F0)...0x06F9 { table[digit] = .contextO }
        return table
    }()
}
