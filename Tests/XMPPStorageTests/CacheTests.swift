import Foundation
import XCTest
import XMPPStorage

/// The SQLite cache: WAL, transactions, and rebuilding a corrupt file.
final class CacheTests: XCTestCase {
    func testCorruptCacheIsRebuiltWithWarning() throws {
        let home = NSTemporaryDirectory() + "xt-cache-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
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

    /// A cache another program holds locked is an error to report, never corruption: deleting
    /// it would throw away what that program is writing.
    func testALockedCacheIsNotDeleted() throws {
        let home = NSTemporaryDirectory() + "xt-cache-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
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
        let home = NSTemporaryDirectory() + "xt-cache-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
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
