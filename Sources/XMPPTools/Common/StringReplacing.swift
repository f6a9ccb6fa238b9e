extension String {
    /// Every occurrence of `target` replaced by `replacement` (FoundationEssentials-free).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for ch in self {
            if ch == target { out += replacement } else { out.append(ch) }
        }
        return out
    }
}
