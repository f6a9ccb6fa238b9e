import CLibIDN2

/// The Bidi Rule of RFC 5893 §2, which the UsernameCaseMapped profile applies to a string
/// holding any right-to-left character (RFC 8265 §3.3.2 step 5).
enum BidiRule {
    static func holdsRightToLeft(_ s: [Unicode.Scalar]) -> Bool {
        s.contains { [r, al, an].contains(UnicodeData.bidiClass($0)) }
    }

    static func isSatisfied(by s: [Unicode.Scalar]) -> Bool {
        guard let first = s.first else { return true }
        let classes = s.map(UnicodeData.bidiClass)
        let rtl: Bool
        switch UnicodeData.bidiClass(first) {
        case l: rtl = false
        case r, al: rtl = true
        default: return false
        }
        let allowed = rtl ? [r, al, an, en, es, cs, et, on, bn, nsm] : [l, en, es, cs, et, on, bn, nsm]
        let last = rtl ? [r, al, en, an] : [l, en]
        guard classes.allSatisfy(allowed.contains) else { return false }
        guard let end = classes.last(where: { $0 != nsm }), last.contains(end) else { return false }
        return !(rtl && classes.contains(en) && classes.contains(an))
    }

    private static let l = Int32(UC_BIDI_L), r = Int32(UC_BIDI_R)
    private static let al = Int32(UC_BIDI_AL), an = Int32(UC_BIDI_AN)
    private static let en = Int32(UC_BIDI_EN), es = Int32(UC_BIDI_ES)
    private static let cs = Int32(UC_BIDI_CS), et = Int32(UC_BIDI_ET)
    private static let on = Int32(UC_BIDI_ON), bn = Int32(UC_BIDI_BN)
    private static let nsm = Int32(UC_BIDI_NSM)
}
