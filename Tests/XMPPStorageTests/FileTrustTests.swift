import Foundation
import XCTest
import XMPPStanzas
@testable import XMPPStorage

/// Files and directories another local user planted are refused, as OpenSSH's StrictModes
/// would: a file must belong to the effective user (root's own for root) and be writable by
/// nobody else, and no secret is written through a symlink. The tests run as root, so "another
/// user" is a uid no account has, given with chown: root may create it, the check must refuse it.
final class FileTrustTests: XCTestCase {
    private var root = ""
    private let stranger: uid_t = 54321

    override func setUpWithError() throws { root = try scratchDirectory("trust") }

    private func paths() throws -> Paths { try Paths(environment: ["HOME": root]) }

    private func give(_ path: String, to uid: uid_t) { XCTAssertEqual(chown(path, uid, gid_t(uid)), 0, path) }

    private func assertUntrusted(_ expression: @autoclosure () throws -> Void, path: String, mentioning words: [String],
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            guard case .untrusted(let named, _)? = error as? StorageError else {
                return XCTFail("not refused as untrusted: \(error)", file: file, line: line)
            }
            XCTAssertEqual(named, path, file: file, line: line)
            let text = "\(error)"
            for word in words { XCTAssertTrue(text.contains(word), "\(text) lacks \(word)", file: file, line: line) }
        }
    }

    private func session(_ jid: String) throws -> StoredSession {
        StoredSession(jid: try JID(jid), mechanism: "SCRAM-SHA-1", hash: "SHA-1", salt: "c2FsdA==", iterations: 4096,
                      clientKey: "Y2s=", serverKey: "c2s=", created: 1)
    }

    func testAConfigDirectoryAnotherUserMadeIsRefusedNamingItsOwner() throws {
        let p = try paths()
        try FileManager.default.createDirectory(atPath: p.config, withIntermediateDirectories: true)
        give(p.config, to: stranger)
        assertUntrusted(try SessionStore(paths: p).save(try session("a@example.org")), path: p.config,
                        mentioning: ["owned by uid 54321", "not by you", "refusing"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: p.sessionsDirectory), "nothing was put in it")
    }

    func testAnOwnDirectoryOthersCanWriteIsRefusedNotSilentlyChmodded() throws {
        let p = try paths()
        try FileManager.default.createDirectory(atPath: p.config, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(p.config, 0o777), 0)
        assertUntrusted(try AccountStore(paths: p).save(AccountsFile()), path: p.config, mentioning: ["writable by everyone", "chmod go-w"])
    }

    func testAConfigDirectoryThatIsASymlinkIsRefused() throws {
        let p = try paths()
        try FileManager.default.createDirectory(atPath: root + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/.config", withIntermediateDirectories: true)
        XCTAssertEqual(symlink(root + "/elsewhere", p.config), 0)
        assertUntrusted(try AccountStore(paths: p).save(AccountsFile()), path: p.config, mentioning: ["symbolic link"])
    }

    func testAPlantedAccountsFileIsNotRead() throws {
        let p = try paths()
        try AccountStore(paths: p).save(AccountsFile())
        give(p.accountsFile, to: stranger)
        assertUntrusted(_ = try AccountStore(paths: p).load(), path: p.accountsFile, mentioning: ["owned by uid 54321"])
        give(p.accountsFile, to: geteuid())
        XCTAssertEqual(chmod(p.accountsFile, 0o622), 0)
        assertUntrusted(_ = try AccountStore(paths: p).load(), path: p.accountsFile, mentioning: ["writable by"])
    }

    func testASymlinkPlantedInSessionsIsNotWrittenThrough() throws {
        let p = try paths()
        let store = SessionStore(paths: p)
        try store.save(try session("first@example.org"))  // makes the directories
        let victim = root + "/victim"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        XCTAssertEqual(symlink(victim, p.sessionFile("alice@example.org")), 0)
        assertUntrusted(try store.save(try session("alice@example.org")), path: p.sessionFile("alice@example.org"),
                        mentioning: ["symbolic link"])
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious")
        // Nor read through one.
        XCTAssertThrowsError(try store.load(try JID("alice@example.org")))
    }

    func testASessionFileOfAnotherUserIsNotUsed() throws {
        let p = try paths()
        let store = SessionStore(paths: p)
        try store.save(try session("bob@example.org"))
        give(p.sessionFile("bob@example.org"), to: stranger)
        assertUntrusted(_ = try store.load(try JID("bob@example.org")), path: p.sessionFile("bob@example.org"),
                        mentioning: ["owned by uid 54321"])
        assertUntrusted(try store.save(try session("bob@example.org")), path: p.sessionFile("bob@example.org"),
                        mentioning: ["owned by uid 54321"])
    }

    func testAPlantedLockFileIsRefused() throws {
        let p = try paths()
        try AccountStore(paths: p).save(AccountsFile())
        give(p.accountsLock, to: stranger)
        XCTAssertThrowsError(try AccountStore(paths: p).save(AccountsFile())) { error in
            guard case .untrusted(p.accountsLock, _)? = error as? StorageError else { return XCTFail("\(error)") }
        }
    }

    func testACacheDirectoryAnotherUserMadeIsRefused() throws {
        let p = try paths()
        try FileManager.default.createDirectory(atPath: p.cache, withIntermediateDirectories: true)
        give(p.cache, to: stranger)
        assertUntrusted(_ = try Cache(paths: p), path: p.cache, mentioning: ["owned by uid 54321"])
    }

    func testAPlantedWriteAheadLogIsRefused() throws {
        let p = try paths()
        try SecureFile.makeDirectory(p.cache)
        for suffix in ["-wal", "-shm", "-journal"] {
            let planted = p.cacheDatabase + suffix
            XCTAssertTrue(FileManager.default.createFile(atPath: planted, contents: nil, attributes: [.posixPermissions: 0o666]))
            give(planted, to: stranger)
            assertUntrusted(_ = try Cache(paths: p), path: planted, mentioning: ["owned by uid 54321"])
            XCTAssertEqual(unlink(planted), 0)
        }
        // A link where a companion goes is not followed either.
        _ = unlink(p.cacheDatabase + "-wal")
        XCTAssertEqual(symlink(root + "/collector", p.cacheDatabase + "-wal"), 0)
        assertUntrusted(_ = try Cache(paths: p), path: p.cacheDatabase + "-wal", mentioning: ["symbolic link"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/collector"))
    }

    func testSQLiteFilesAreCreatedPrivate() throws {
        let p = try paths()
        // An older cache SQLite made 0644 is the user's own: it is closed to others, not refused.
        try SecureFile.makeDirectory(p.cache)
        XCTAssertTrue(FileManager.default.createFile(atPath: p.cacheDatabase, contents: nil, attributes: [.posixPermissions: 0o644]))
        let cache = try Cache(paths: p)
        try cache.database.execute("CREATE TABLE IF NOT EXISTS t (x); INSERT INTO t VALUES (1)")
        for suffix in FileTrust.sqliteSuffixes {
            var st = stat()
            if lstat(p.cacheDatabase + suffix, &st) == 0 {
                XCTAssertEqual(st.st_mode & 0o777, 0o600, suffix)
                XCTAssertEqual(st.st_uid, geteuid(), suffix)
            }
        }
    }

    func testAGroupWritableDirectoryIsNoPlaceForSecretsButStickyTmpIs() throws {
        let shared = root + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(shared, 0o775), 0)
        assertUntrusted(try SecureFile.writeSecret([1], to: shared + "/secret"), path: shared, mentioning: ["writable by its group"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: shared + "/secret"))
        XCTAssertEqual(chmod(shared, 0o1777), 0)
        XCTAssertNoThrow(try SecureFile.writeSecret([1], to: shared + "/secret"), "sticky: only the owner may replace it")
        give(shared, to: stranger)
        assertUntrusted(try SecureFile.writeSecret([1], to: shared + "/secret"), path: shared, mentioning: ["owned by uid 54321"])
    }
}

/// Every directory above a secret is checked up to the root (issue 34 items 4 and 6), as
/// OpenSSH's `safe_path`: owned by the user or root, writable by nobody else unless root's and
/// sticky.
final class SafeAncestorTests: XCTestCase {
    private let stranger: uid_t = 54321

    func testAStateDirectoryBelowADirectoryAnotherUserCanWriteIsRefused() throws {
        let root = try scratchDirectory("ancestors")
        let shared = root + "/shared"
        try FileManager.default.createDirectory(atPath: shared + "/mine/state", withIntermediateDirectories: true)
        XCTAssertEqual(chown(shared, stranger, gid_t(stranger)), 0)
        let paths = try Paths(environment: ["HOME": root, "XDG_STATE_HOME": shared + "/mine/state"])
        // Only the last parent was checked before: mine/state is the user's own.
        XCTAssertThrowsError(try SecureFile.makeDirectory(paths.state)) { error in
            guard case .untrusted(let path, let reason)? = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, shared)
            XCTAssertTrue(reason.contains("owned by uid 54321"), reason)
        }
        XCTAssertEqual(chown(shared, 0, 0), 0)
        XCTAssertEqual(chmod(shared, 0o777), 0)
        XCTAssertThrowsError(try SecureFile.makeDirectory(paths.state)) { error in
            XCTAssertTrue("\(error)".contains("writable by everyone"), "\(error)")
        }
        XCTAssertEqual(chmod(shared, 0o1777), 0)
        XCTAssertNoThrow(try SecureFile.makeDirectory(paths.state), "root's sticky directory, as /tmp")
        XCTAssertEqual(chmod(shared, 0o755), 0)
        XCTAssertNoThrow(try SecureFile.writeSecret(Array("x".utf8), to: paths.state + "/f"))
    }

    func testAPrivateDirectoryIsNeverALink() throws {
        let root = try scratchDirectory("private")
        try FileManager.default.createDirectory(atPath: root + "/theirs", withIntermediateDirectories: true)
        XCTAssertEqual(symlink(root + "/theirs", root + "/groups"), 0)
        XCTAssertThrowsError(try FileTrust.requirePrivateDirectory(root + "/groups")) { error in
            XCTAssertTrue("\(error)".contains("symbolic link"), "\(error)")
        }
        XCTAssertNoThrow(try FileTrust.requirePrivateDirectory(root + "/theirs"))
        XCTAssertEqual(chown(root + "/theirs", stranger, gid_t(stranger)), 0)
        XCTAssertThrowsError(try FileTrust.requirePrivateDirectory(root + "/theirs"))
    }
}
