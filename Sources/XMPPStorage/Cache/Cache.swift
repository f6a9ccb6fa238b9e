/// The disposable cache (`$XDG_CACHE_HOME/xmpp-tools/cache.sqlite3`): rosters, vCards,
/// avatars. Each area declares its tables in `schema`; a file that cannot be opened or fails
/// its integrity check is deleted and rebuilt, with a warning through `onRebuild`.
public final class Cache {
    /// The open database.
    public let database: Database

    /// Every table of every area, created if missing. Areas append their statements here.
    static let schema: [String] = CacheSchema.statements

    /// Opens the cache under `paths`, rebuilding it when it is corrupt.
    public init(paths: Paths, onRebuild: (String) -> Void = { _ in }) throws(StorageError) {
        try SecureFile.makeDirectory(paths.cache)
        let path = paths.cacheDatabase
        if let db = try? Cache.open(path) {
            database = db
            return
        }
        onRebuild("the cache \(path) was unreadable and has been rebuilt")
        for suffix in ["", "-wal", "-shm"] { try SecureFile.remove(path + suffix) }
        database = try Cache.open(path)
    }

    private static func open(_ path: String) throws(StorageError) -> Database {
        let db = try Database(path: path)
        guard db.isHealthy() else { throw .corrupt(path: path, reason: "integrity check failed") }
        try db.execute(schema.joined(separator: ";\n"))
        return db
    }
}
