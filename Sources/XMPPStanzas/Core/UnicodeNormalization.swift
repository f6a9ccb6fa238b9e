/// Unicode normalization for the layers above, from the same libunistring tables as the PRECIS
/// profiles of JIDs, so SASLprep (RFC 4013 §2.2, NFKC) and JIDs agree on one Unicode version.
public enum UnicodeNormalization {
    /// Normalization form KC of `text`.
    public static func nfkc(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: UnicodeData.nfkc(Array(text.unicodeScalars)))
        return String(scalars)
    }
}
