import Glibc
import CLibIDN2

/// The Unicode character data PRECIS needs (RFC 8264 §9), from libunistring: the library
/// libidn2 is built on, so localparts, resourceparts and domainparts see one Unicode version.
enum UnicodeData {
    /// General category as one of libunistring's `UC_CATEGORY_MASK_*` bits.
    static func category(_ c: Unicode.Scalar) -> UInt32 { xt_uc_category_mask(c.value) }

    static func isCategory(_ c: Unicode.Scalar, in mask: UInt32) -> Bool { category(c) & mask != 0 }

    /// General category Zs.
    static func isSpaceSeparator(_ c: Unicode.Scalar) -> Bool { isCategory(c, in: UInt32(UC_CATEGORY_MASK_Zs)) }

    static func isDefaultIgnorable(_ c: Unicode.Scalar) -> Bool {
        uc_is_property_default_ignorable_code_point(c.value)
    }

    static func isNoncharacter(_ c: Unicode.Scalar) -> Bool { uc_is_property_not_a_character(c.value) }

    static func bidiClass(_ c: Unicode.Scalar) -> Int32 { uc_bidi_class(c.value) }

    static func joiningType(_ c: Unicode.Scalar) -> Int32 { uc_joining_type(c.value) }

    static func combiningClass(_ c: Unicode.Scalar) -> Int32 { uc_combining_class(c.value) }

    static func script(_ c: Unicode.Scalar) -> String? { xt_uc_script_name(c.value).map { String(cString: $0) } }

    /// The <wide> or <narrow> decomposition mapping of `c`, if it has one.
    static func widthDecomposition(_ c: Unicode.Scalar) -> [Unicode.Scalar]? {
        var out = [UInt32](repeating: 0, count: 32)
        let n = Int(xt_uc_width_decomposition(c.value, &out))
        guard n > 0 else { return nil }
        return out[..<n].compactMap(Unicode.Scalar.init)
    }

    static func nfc(_ s: [Unicode.Scalar]) -> [Unicode.Scalar] { transform(s) { xt_u32_normalize(false, $0, $1, $2) } }

    static func nfkc(_ s: [Unicode.Scalar]) -> [Unicode.Scalar] { transform(s) { xt_u32_normalize(true, $0, $1, $2) } }

    /// Unicode toLowerCase with its full mappings and the Final_Sigma context (RFC 8265 §3.3.2 step 3).
    static func lowercased(_ s: [Unicode.Scalar]) -> [Unicode.Scalar] { transform(s) { xt_u32_tolower($0, $1, $2) } }

    /// Runs a libunistring transformation; its only failure is running out of memory, when
    /// the input comes back unchanged (and is then checked as it is).
    private static func transform(
        _ s: [Unicode.Scalar],
        _ f: (UnsafePointer<UInt32>?, Int, UnsafeMutablePointer<Int>) -> UnsafeMutablePointer<UInt32>?
    ) -> [Unicode.Scalar] {
        guard !s.isEmpty else { return s }
        let values = s.map(\.value)
        var length = 0
        guard let result = values.withUnsafeBufferPointer({ f($0.baseAddress, $0.count, &length) }) else { return s }
        defer { free(result) }
        return UnsafeBufferPointer(start: result, count: length).compactMap(Unicode.Scalar.init)
    }
}
