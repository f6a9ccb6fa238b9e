extension Unicode.Scalar {
    /// `U+0007`, `U+1F600`: how error messages name a character that cannot be shown as itself
    /// (and a password's characters, which must never be shown at all).
    public var codePointLabel: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
