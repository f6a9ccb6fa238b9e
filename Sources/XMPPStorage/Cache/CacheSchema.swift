/// The cache's tables. Each area (roster, vCard, avatar) owns its statements; all use
/// `CREATE … IF NOT EXISTS`, and the cache is disposable, so a change of shape bumps the
/// table name rather than migrating.
enum CacheSchema {
    static let statements: [String] = CacheArea.allCases.flatMap(\.statements)
}

/// The parts of the cache a command reads and writes; `Cache` checks theirs when it opens.
public enum CacheArea: CaseIterable, Sendable {
    case roster, vcard, avatar

    /// The area's `CREATE … IF NOT EXISTS` statements.
    var statements: [String] {
        switch self {
        case .roster: RosterCacheSchema.statements
        case .vcard: VCardCacheSchema.statements
        case .avatar: AvatarCacheSchema.statements
        }
    }

    /// The tables its statements create, read from them: one list of names to keep up.
    var tables: [String] {
        statements.compactMap { statement in
            let words = statement.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "(" })
            guard words.count > 5, words[0] == "CREATE", words[1] == "TABLE" else { return nil }
            return String(words[5])  // CREATE TABLE IF NOT EXISTS name
        }
    }
}
