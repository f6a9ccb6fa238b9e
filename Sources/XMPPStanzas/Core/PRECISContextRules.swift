import CLibIDN2

/// The contextual rules for CONTEXTJ and CONTEXTO code points (RFC 5892 Appendix A, which
/// RFC 8264 §7 uses), checked on the string after all mapping and normalization.
enum PRECISContextRules {
    /// Nil when the code point at `index` may stand where it is; else the rule's name.
    static func failure(in s: [Unicode.Scalar], at index: Int) -> String? {
        let c = s[index].value
        let before = index > 0 ? s[index - 1] : nil
        let after = index + 1 < s.count ? s[index + 1] : nil
        switch c {
        case 0x200C:
            if let before, isVirama(before) { return nil }
            return joinsAcross(s, at: index) ? nil : "zero_width_nonjoiner"
        case 0x200D:
            if let before, isVirama(before) { return nil }
            return "zero_width_joiner"
        case 0x00B7:
            return before == "l" && after == "l" ? nil : "middle_dot"
        case 0x0375:
            return after.map(UnicodeData.script) == "Greek" ? nil : "greek_keraia"
        case 0x05F3, 0x05F4:
            return before.map(UnicodeData.script) == "Hebrew" ? nil : "hebrew_punctuation"
        case 0x30FB:
            let scripts: Set<String?> = ["Hiragana", "Katakana", "Han"]
            return s.contains { scripts.contains(UnicodeData.script($0)) } ? nil : "katakana_middle_dot"
        case 0x0660...0x0669:
            return s.contains { (0x06F0...0x06F9).contains($0.value) } ? "arabic_indic" : nil
        case 0x06F0...0x06F9:
            return s.contains { (0x0660...0x0669).contains($0.value) } ? "extended_arabic_indic" : nil
        default:
            return "unknown_context"
        }
    }

    private static func isVirama(_ c: Unicode.Scalar) -> Bool {
        UnicodeData.combiningClass(c) == Int32(UC_CCC_VR)
    }

    /// `(Joining_Type:{L,D})(Joining_Type:T)* ZWNJ (Joining_Type:T)*(Joining_Type:{R,D})`.
    private static func joinsAcross(_ s: [Unicode.Scalar], at index: Int) -> Bool {
        reaches(s[..<index].reversed(), Int32(UC_JOINING_TYPE_L))
            && reaches(s[(index + 1)...], Int32(UC_JOINING_TYPE_R))
    }

    private static func reaches<S: Sequence<Unicode.Scalar>>(_ side: S, _ wanted: Int32) -> Bool {
        for c in side {
            let type = UnicodeData.joiningType(c)
            if type == wanted || type == Int32(UC_JOINING_TYPE_D) { return true }
            if type != Int32(UC_JOINING_TYPE_T) { return false }
        }
        return false
    }
}
