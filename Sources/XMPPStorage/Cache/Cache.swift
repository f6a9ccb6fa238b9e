/// The disposable cache (`$XDG_CACHE_HOME/xmpp-tools/cache.sqlite3`): rosters, vCards,
/// avatars. Each area declares its tables in `schema`. A file that is not a database or fails
/// its integrity check is deleted and rebuilt, with a warning through `onRebuild`; any other
/// failure (busy, locked, unreadable, disk full) is thrown and the file is left alone.
public final class Cache {
    /// The open database.
    public let database: Database

    /// Every table of every area, created if missing. Areas append their statements here.
    static let schema: [String] = CacheSchema.statements

    /// Opens the cache under `paths`, rebuilding it when it is corrupt.
    public init(paths: Paths, busyTimeoutMilliseconds: Int32 = 10_000, onRebuild: (String) -> Void = { _ in }) throws(StorageError) {
        try SecureFile.makeDirectory(paths.cache)
        let path = paths.cacheDatabase
        do {
            database = try Cache.open(path, busyTimeoutMilliseconds)
            return
        } catch {
            guard case .corrupt = error else { throw error }
        }
        onRebuild("the cache \(path) was unreadable and has been rebuilt")
        for suffix in ["", "-wal", "-shm"] { try SecureFile.remove(path + suffix) }
        database = try Cache.open(path, busyTimeoutMilliseconds)
    }

    private static func open(_ path: String, _ busyTimeoutMilliseconds: Int32) throws(StorageError) -> Database {
        let db = try Database(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        if let problem = try db.integrityProblem() { throw .corrupt(path: path, reason: "integrity check failed: \(problem)") }
        try db.execute(schema.joined(separator: ";\n"))
        return db
    }
}
