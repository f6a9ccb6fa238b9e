import CLibIDN2
import Glibc

/// A domainpart as RFC 7622 §3.2 wants it: UTS #46 mapping (non-transitional) and the
/// IDNA2008 rules, through libidn2, one label at a time. A-labels and U-labels of one name give
/// the same result; the canonical form holds U-labels (RFC 7622 §3.2.1: a domainpart is
/// prepared with each A-label converted to its U-label), and `asciiForm` gives the A-labels
/// DNS and TLS need.
enum IDNADomain {
    enum Failure: Error, Equatable {
        case emptyLabel
        /// libidn2's reason, e.g. "string contains a disallowed character".
        case refused(label: String, reason: String)
        /// A character STD3 (letters, digits, hyphen) does not allow in a host name label.
        case notLDH(label: String, character: Unicode.Scalar)
    }

    /// The U-label form and the A-label form of `name` (trailing dot already removed).
    static func canonical(_ name: String) throws(Failure) -> (unicode: String, ascii: String) {
        var unicodeLabels: [String] = [], asciiLabels: [String] = []
        // UTS #46 §4 step 1 maps these full stops to '.' before labels are split.
        let labels = name.unicodeScalars.split(omittingEmptySubsequences: false) {
            $0 == "." || $0 == "\u{3002}" || $0 == "\u{FF0E}" || $0 == "\u{FF61}"
        }
        for scalars in labels {
            let label = String(String.UnicodeScalarView(scalars))
            guard !label.isEmpty else { throw .emptyLabel }
            // libidn2 reads C strings: a NUL would end the label early instead of being refused.
            if scalars.contains("\0") { throw .notLDH(label: label, character: "\0") }
            let ascii = try lookup(label)
            // UTS #46 ignores some characters (U+00AD, U+FEFF…) and maps others to a full stop.
            guard !ascii.isEmpty else { throw .emptyLabel }
            if ascii.contains(".") { throw .refused(label: label, reason: "a character in it maps to a full stop") }
            // libidn2's STD3 flag drops such characters silently; refuse them here instead.
            if let bad = ascii.unicodeScalars.first(where: { !isLDH($0) }) {
                throw .notLDH(label: label, character: bad)
            }
            let unicode = try toUnicode(ascii, label: label)
            // RFC 5891 §5.4: an A-label is valid only if its U-label is, and encodes back to it.
            // libidn2 decodes "xn--bshple" to "⒂⒃⑾⑶" without that check; UTS #46 maps those to
            // "(15)(16)(11)(3)", which no host name may hold (FuzzJID: a JID whose canonical
            // form was refused).
            if ascii.hasPrefix("xn--") {
                let again: String
                do { again = try lookup(unicode) } catch { throw .refused(label: label, reason: "its U-label is not valid") }
                guard again == ascii else { throw .refused(label: label, reason: "its U-label is not valid") }
            }
            asciiLabels.append(ascii)
            unicodeLabels.append(unicode)
        }
        return (unicodeLabels.joined(separator: "."), asciiLabels.joined(separator: "."))
    }

    private static func isLDH(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "-"
    }

    private static let flags = Int32(IDN2_NFC_INPUT.rawValue | IDN2_NONTRANSITIONAL.rawValue)

    private static func lookup(_ label: String) throws(Failure) -> String {
        var out: UnsafeMutablePointer<UInt8>?
        let rc = idn2_lookup_u8(label, &out, flags)
        defer { free(out) }
        guard rc == IDN2_OK.rawValue, let out else { throw .refused(label: label, reason: reason(rc)) }
        return String(cString: out)
    }

    private static func toUnicode(_ ascii: String, label: String) throws(Failure) -> String {
        var out: UnsafeMutablePointer<CChar>?
        let rc = idn2_to_unicode_8z8z(ascii, &out, 0)
        defer { free(out) }
        guard rc == IDN2_OK.rawValue, let out else { throw .refused(label: label, reason: reason(rc)) }
        return String(cString: out)
    }

    private static func reason(_ rc: Int32) -> String {
        idn2_strerror(rc).map { String(cString: $0) } ?? "error \(rc)"
    }
}
