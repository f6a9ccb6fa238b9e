/// Trimming text, the one way for every module: by Unicode scalar, never by grapheme cluster
/// (the files and protocol text the tools read are byte-level formats, where a space followed by
/// a combining mark is still a space to drop).
extension StringProtocol {
    /// The text without the leading and trailing scalars `drop` matches.
    public func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = Substring(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }), let last = scalars.lastIndex(where: { !drop($0) }) else {
            return ""
        }
        return String(scalars[first...last])
    }

    /// The text without leading and trailing whitespace (Unicode's White_Space).
    public func trimmingWhitespace() -> String { trimming { $0.properties.isWhitespace } }
}
