import Foundation
import Synchronization
import XCTest
import XMPPStorage

/// `accounts.json` under concurrent updates, and the lock they take.
final class AccountStoreLockTests: XCTestCase {
    var root: String!

    override func setUpWithError() throws { root = try scratchDirectory("lock", created: false) }

    func testConcurrentUpdatesKeepEveryAccountAndItsSettings() throws {
        let store = AccountStore(paths: try Paths(environment: ["HOME": root]))
        let writers = 16, rounds = 6
        let errors = Mutex<[String]>([])
        // Each thread opens the lock file itself, as a separate program would.
        DispatchQueue.concurrentPerform(iterations: writers) { w in
            for r in 0..<rounds {
                do {
                    try store.update { file in
                        file.accounts["u\(w)-\(r)@x"] = AccountSettings(server: "host\(w)", port: 5000 + r, caFile: "/ca/\(w).pem",
                                                                        usedSCRAM: true)
                        if file.active == nil { file.active = "u\(w)-\(r)@x" }
                    }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
        }
        XCTAssertEqual(errors.withLock { $0 }, [])
        let file = try store.load()
        XCTAssertEqual(file.accounts.count, writers * rounds, "no update overwrote another")
        for w in 0..<writers {
            for r in 0..<rounds {
                XCTAssertEqual(file.accounts["u\(w)-\(r)@x"],
                               AccountSettings(server: "host\(w)", port: 5000 + r, caFile: "/ca/\(w).pem", usedSCRAM: true))
            }
        }
        XCTAssertNotNil(file.active)
    }

    func testTheLockWaitsForItsHolder() throws {
        let paths = try Paths(environment: ["HOME": root])
        try SecureFile.makeDirectory(paths.locksDirectory)
        let held = try FileLock.acquire(paths.accountsLock)
        let store = AccountStore(paths: paths)
        let done = expectation(description: "update finished")
        DispatchQueue.global().async {
            try? store.update { $0.active = "late@x" }
            done.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertNil(try store.load().active, "the update waits while another holds the lock")
        held.release()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(try store.load().active, "late@x")
        var st = stat()
        XCTAssertEqual(stat(paths.accountsLock, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertEqual(stat(paths.locksDirectory, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o700)
    }
}
