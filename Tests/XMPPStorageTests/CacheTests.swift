import Foundation
import XCTest
import XMPPStanzas
@testable import XMPPStorage

/// The SQLite cache: WAL, transactions, and rebuilding a corrupt file.
final class CacheTests: XCTestCase {
    func testCorruptCacheIsRebuiltWithWarning() throws {
        let home = try scratchDirectory("cache", created: false)
        let paths = try Paths(environment: ["HOME": home])
        try FileManager.default.createDirectory(atPath: paths.cache, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: paths.cacheDatabase))
        var warnings: [String] = []
        let cache = try Cache(paths: paths) { warnings.append($0) }
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("rebuilt"), warnings[0])
        XCTAssertTrue(cache.database.isHealthy())
        let mode = try cache.database.query("PRAGMA journal_mode").first?.first?.text
        XCTAssertEqual(mode, "wal")
    }

    /// Each area's tables are read from its own CREATE statements (indexes are checked with their table).
    func testEachAreaNamesTheTablesItsStatementsCreate() {
        XCTAssertEqual(CacheArea.roster.tables, ["roster_meta_v2", "roster_items_v2"])
        XCTAssertEqual(CacheArea.vcard.tables, ["vcard_cache_v2"])
        XCTAssertEqual(CacheArea.avatar.tables, ["avatar_images_v1", "avatar_owners_v1"])
    }

    /// Opening checks the tables of the areas the command uses: damage in the avatars' table
    /// does not cost a roster command its cached roster (nor a read of every avatar), and is
    /// found, and rebuilt, by the avatar command.
    func testOpeningChecksTheTablesOfItsAreas() throws {
        let home = try scratchDirectory("cache", created: false)
        let paths = try Paths(environment: ["HOME": home])
        let alice = try JID("alice@example.org")
        var root: Int64 = 0
        do {
            let cache = try Cache(paths: paths)
            try RosterCache(cache: cache).replace(account: alice, ver: "1", items: [RosterItem(jid: try JID("bob@example.org"))], now: 1)
            try cache.database.query("INSERT INTO avatar_images_v1 VALUES ('h', 'image/png', 1, 1, zeroblob(3000), 0)")
            root = try XCTUnwrap(try cache.database.query("SELECT rootpage FROM sqlite_master WHERE name = 'avatar_images_v1'").first?.first?.int)
            _ = try cache.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        // The avatars' root page: a b-tree page type SQLite does not know.
        let file = try XCTUnwrap(FileHandle(forUpdatingAtPath: paths.cacheDatabase))
        try file.seek(toOffset: UInt64((root - 1) * 4096))
        file.write(Data([0x07]))
        try file.close()

        var warnings: [String] = []
        let roster = try Cache(paths: paths, areas: [.roster]) { warnings.append($0) }
        XCTAssertEqual(warnings, [], "the roster's tables are sound")
        XCTAssertEqual(try RosterCache(cache: roster).load(account: alice)?.items.count, 1)
        XCTAssertFalse(roster.database.isHealthy(), "the whole file is not")
        let avatar = try Cache(paths: paths, areas: [.avatar]) { warnings.append($0) }
        XCTAssertEqual(warnings.count, 1, "the avatar command finds the damage and rebuilds")
        XCTAssertNil(try avatar.database.integrityProblem())
        XCTAssertNil(try RosterCache(cache: avatar).load(account: alice), "rebuilt: empty")
    }

    /// A cache another program holds locked is an error to report, never corruption: deleting
    /// it would throw away what that program is writing.
    func testALockedCacheIsNotDeleted() throws {
        let home = try scratchDirectory("cache", created: false)
        let paths = try Paths(environment: ["HOME": home])
        let holder = try Cache(paths: paths).database
        try holder.execute("CREATE TABLE mine (v TEXT); INSERT INTO mine VALUES ('kept')")
        try holder.execute("PRAGMA locking_mode=EXCLUSIVE")
        try holder.execute("BEGIN EXCLUSIVE; INSERT INTO mine VALUES ('kept too'); COMMIT")
        var warnings: [String] = []
        XCTAssertThrowsError(try Cache(paths: paths, busyTimeoutMilliseconds: 200) { warnings.append($0) }) { error in
            guard case .sqlite(let reason)? = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("locked"), reason)
        }
        XCTAssertEqual(warnings, [], "nothing was rebuilt")
        XCTAssertEqual(try holder.query("SELECT v FROM mine ORDER BY v"), [[.text("kept")], [.text("kept too")]])
        try holder.execute("PRAGMA locking_mode=NORMAL")
        _ = try holder.query("SELECT count(*) FROM mine")  // the exclusive lock goes at the next access
        let reopened = try Cache(paths: paths)
        XCTAssertEqual(try reopened.database.query("SELECT count(*) FROM mine"), [[.int(2)]], "the file is the same file")
    }

    /// A cache that cannot be opened (here its write-ahead log is a directory: as root, chmod
    /// cannot make a file unreadable) is an error; the database file itself is kept.
    func testACacheThatCannotBeOpenedIsNotDeleted() throws {
        let home = try scratchDirectory("cache", created: false)
        let paths = try Paths(environment: ["HOME": home])
        do {
            let first = try Cache(paths: paths)
            try first.database.execute("CREATE TABLE mine (v TEXT); INSERT INTO mine VALUES ('kept')")
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: paths.cacheDatabase + suffix) }
        let before = try Data(contentsOf: URL(fileURLWithPath: paths.cacheDatabase))
        try FileManager.default.createDirectory(atPath: paths.cacheDatabase + "-wal", withIntermediateDirectories: false)
        var warnings: [String] = []
        XCTAssertThrowsError(try Cache(paths: paths) { warnings.append($0) })
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: paths.cacheDatabase)), before, "the database file is untouched")
        try FileManager.default.removeItem(atPath: paths.cacheDatabase + "-wal")
        XCTAssertEqual(try Cache(paths: paths).database.query("SELECT v FROM mine"), [[.text("kept")]])
    }

    func testADatabaseThatIsNotACacheFileIsCorrupt() throws {
        let path = NSTemporaryDirectory() + "xt-db-" + UUID().uuidString
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Database(path: path)) { error in
            guard case .corrupt(let p, _)? = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertEqual(p, path)
        }
    }

    func testTransactionRollsBack() throws {
        let path = NSTemporaryDirectory() + "xt-db-" + UUID().uuidString
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let db = try Database(path: path)
        try db.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v BLOB)")
        _ = try db.transaction { try db.query("INSERT INTO t VALUES (?, ?)", [.text("a"), .blob([1, 2, 3])]) }
        struct Boom: Error {}
        XCTAssertThrowsError(try db.transaction {
            try db.query("INSERT INTO t VALUES (?, ?)", [.text("b"), .null])
            throw Boom()
        })
        let rows = try db.query("SELECT k, v FROM t ORDER BY k")
        XCTAssertEqual(rows, [[.text("a"), .blob([1, 2, 3])]])
    }
}
