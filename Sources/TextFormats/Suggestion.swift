/// "Did you mean": the closest known word to a mistyped one (an option, a subcommand, a CSV
/// column).
public enum Suggestion {
    /// The candidate nearest to `input`: within Damerau–Levenshtein distance 2 (1 for inputs of
    /// up to three characters), or starting with `input` (when it has at least two characters).
    /// Ties go to the earlier candidate; nil when none is close.
    public static func closest(to input: String, among candidates: [String]) -> String? {
        let typed = Array(input)
        let limit = typed.count <= 3 ? 1 : 2
        var best: (word: String, score: Int)?
        for candidate in candidates {
            var score = distance(typed, Array(candidate))
            if typed.count >= 2 && candidate.hasPrefix(input) { score = min(score, 1) }
            if score <= limit && score < (best?.score ?? Int.max) { best = (candidate, score) }
        }
        return best?.word
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and transpositions
    /// of adjacent characters each cost 1.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        var rows = [[Int]](repeating: [Int](repeating: 0, count: width), count: 3)
        for j in 0..<width { rows[0][j] = j }
        var previous2 = 2
        var previous = 0
        var current = 1
        for i in 1...a.count {
            rows[current][0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(rows[previous][j] + 1, rows[current][j - 1] + 1, rows[previous][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    value = min(value, rows[previous2][j - 2] + 1)
                }
                rows[current][j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return rows[previous][b.count]
    }
}
