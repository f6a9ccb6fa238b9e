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
