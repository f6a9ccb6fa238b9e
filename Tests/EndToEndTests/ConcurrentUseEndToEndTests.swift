import Foundation
import XCTest

/// Two tools of one account at once, on one cache (issue 8): neither corrupts nor blocks the
/// other, and a corrupt cache file is rebuilt with a warning.
final class ConcurrentUseEndToEndTests: XCTestCase {
    func testWatchAndVCardSetAndRosterListAtOnce() throws {
        let w = try RosterWorld()
        let alice = try w.account("cw")
        let bob = try w.account("cb")
        XCTAssertEqual(try w.roster(alice, ["add", bob, "--name", "Bob", "--no-subscribe"]).status, 0)
        let watcher = try w.watch(alice)
        // While watch holds a session and writes roster pushes to the cache, other tools of the
        // same account write vCards and rosters to the same cache file.
        for i in 0..<5 {
            let set = try w.tools.run("xmpp-vcard", ["set", "--nickname", "nick \(i)", "-a", alice])
            XCTAssertEqual(set.status, 0, set.stderr)
            let rename = try w.roster(alice, ["rename", bob, "Bob \(i)"])
            XCTAssertEqual(rename.status, 0, rename.stderr)
            XCTAssertFalse(rename.stderr.contains("locked") || rename.stderr.contains("busy"), rename.stderr)
        }
        // watch saw every push and is still running: no resource conflict knocked it off.
        try watcher.waitFor { ($0["event"] as? String) == "roster_push" && (($0["name"] as? String) ?? "").hasSuffix("4") }
        XCTAssertEqual(watcher.stop(SIGTERM), 0, watcher.stderr)
        let cached = try w.contacts(alice, ["--cached"])
        XCTAssertEqual(cached[bob]?["name"] as? String, "Bob 4", "the cache holds the last write")
        let nick = try w.tools.run("xmpp-vcard", ["get", "--cached", "--field", "nickname", "-a", alice])
        XCTAssertEqual(nick.stdout, "nick 4\n", nick.stderr)
    }

    func testCorruptCacheIsRebuiltWithAWarning() throws {
        let w = try RosterWorld()
        let alice = try w.account("cc")
        XCTAssertEqual(try w.roster(alice, ["list", "--no-presence"]).status, 0)
        let path = w.tools.home + "/cache/xmpp-tools/cache.sqlite3"
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try Data(repeating: 0x5A, count: 16384).write(to: URL(fileURLWithPath: path))
        let r = try w.roster(alice, ["list", "--no-presence"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("rebuilt"), r.stderr)
        let again = try w.roster(alice, ["list", "--no-presence"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "", "rebuilt once, then quiet")
    }
}
