import Foundation
import XCTest

/// What an `--admin` batch whose node died mid-batch may end with. A row in flight on the dead
/// stream is sent again elsewhere; if the first attempt had created the account, the second is
/// refused as existing and the tool logs in to check it. ejabberd 23.01 then caches the refusal
/// (`{error, exists}`) as the account's password and closes every stream that logs in to it
/// (case_clause in ejabberd_auth:get_password_with_authmodule) until its auth cache expires,
/// an hour by default; 24.12 does not (measured). Servers without capability
/// `login-after-add-user-conflict` may so end such a row `failed` after its attempts, exit 1:
/// the account exists (the callers count them on the server), it is not made twice, and the
/// report says to run the batch again.
enum AddUserConflictOutcome {
    /// Checks the exit status and statuses; returns the keys of the rows that were created.
    static func check<Key: Hashable>(_ server: TestServer, exitStatus: Int32, rows: [Key: (status: String, password: String)],
                                     stderr: String, file: StaticString = #filePath, line: UInt = #line) -> Set<Key> {
        let created = Set(rows.filter { $0.value.status == "created" }.map(\.key))
        if server.has("login-after-add-user-conflict") {
            XCTAssertEqual(exitStatus, 0, stderr, file: file, line: line)
            XCTAssertEqual(Set(rows.values.map(\.status)), ["created"], stderr, file: file, line: line)
            return created
        }
        let failed = rows.filter { $0.value.status != "created" }
        XCTAssertEqual(exitStatus, failed.isEmpty ? 0 : 1, stderr, file: file, line: line)
        XCTAssertEqual(Set(failed.values.map(\.status)).subtracting(["failed"]), [], stderr, file: file, line: line)
        let closedOnCheck = stderr.split(separator: "\n").filter { $0.contains(": failed: gave up after") && $0.contains("closed the stream") }
        XCTAssertEqual(closedOnCheck.count, failed.count, "only rows whose check the server broke off failed: \(stderr)", file: file, line: line)
        XCTAssertLessThan(failed.count, 10, "a few rows in flight, not the batch", file: file, line: line)
        return created
    }
}
