/// The cache's tables. Each area (roster, vCard, avatar) owns its statements; all use
/// `CREATE … IF NOT EXISTS`, and the cache is disposable, so a change of shape bumps the
/// table name rather than migrating.
enum CacheSchema {
    static let statements: [String] =
        AvatarCacheSchema.statements +
        []
}
