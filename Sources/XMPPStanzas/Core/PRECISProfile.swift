/// The two PRECIS profiles JIDs use (RFC 8265): UsernameCaseMapped for localparts (§3.3, on the
/// IdentifierClass) and OpaqueString for resourceparts (§4.2, on the FreeformClass). Enforcement
/// applies the five rules of RFC 8264 §7 in order, checks the result is stable under them
/// again, then checks every code point against the string class and its context rules.
enum PRECISProfile {
    case usernameCaseMapped
    case opaqueString

    /// Why a string was refused, with precis-i18n's names for the rule.
    enum Failure: Error, Equatable {
        case empty
        /// A code point the string class does not allow (`reason`: the deciding rule of RFC 8264 §8).
        case disallowed(Unicode.Scalar, reason: String)
        /// A CONTEXTJ or CONTEXTO code point whose context rule fails.
        case context(Unicode.Scalar, rule: String)
        case bidiRule
        case notIdempotent
    }

    func enforce(_ text: String) throws(Failure) -> String {
        let prepared = applyRules(Array(text.unicodeScalars))
        guard applyRules(prepared) == prepared else { throw .notIdempotent }
        guard !prepared.isEmpty else { throw .empty }
        for (index, c) in prepared.enumerated() {
            let property = PRECISDerivedProperty(c)
            switch property.value {
            case .pValid: continue
            case .freePValid where self == .opaqueString: continue
            case .contextJ, .contextO:
                if let rule = PRECISContextRules.failure(in: prepared, at: index) {
                    throw .context(typed(c, in: text), rule: rule)
                }
            default:
                throw .disallowed(typed(c, in: text), reason: property.reason)
            }
        }
        // RFC 8264 applies the directionality rule before the class check; checking it after
        // gives the same verdicts and lets an error name a refused character instead.
        if case .usernameCaseMapped = self, BidiRule.holdsRightToLeft(prepared), !BidiRule.isSatisfied(by: prepared) {
            throw .bidiRule
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: prepared)
        return String(out)
    }

    /// The code point of `text` that became `c` (`Ⅳ` for the `ⅳ` that lowercasing made of it),
    /// so errors name what was typed.
    private func typed(_ c: Unicode.Scalar, in text: String) -> Unicode.Scalar {
        text.unicodeScalars.first { $0 == c || applyRules([$0]).contains(c) } ?? c
    }

    /// Width mapping, additional mapping, case mapping and normalization (RFC 8264 §7 rules
    /// 1–4; rule 5, directionality, is a check and runs in `enforce`).
    private func applyRules(_ s: [Unicode.Scalar]) -> [Unicode.Scalar] {
        switch self {
        case .usernameCaseMapped:
            let widthMapped = s.flatMap { UnicodeData.widthDecomposition($0) ?? [$0] }
            return UnicodeData.nfc(UnicodeData.lowercased(widthMapped))
        case .opaqueString:
            return UnicodeData.nfc(s.map { c in
                c != " " && UnicodeData.isSpaceSeparator(c) ? " " : c
            })
        }
    }
}
