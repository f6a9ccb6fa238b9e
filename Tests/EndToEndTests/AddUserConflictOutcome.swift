import Foundation
import XCTest

/// What an `--admin` batch whose node died mid-batch ends with: every row created, exit 0. A
/// row in flight on the dead stream is logged into before it is sent again, so no add-user
/// meets the account its first attempt made. Sent again at once (as before), that `conflict`
/// made ejabberd (23.01, and 24.12 in CI) cache the account as unusable and close every stream
/// that logged in to it for an hour: 1 to 4 rows of 400 ended `failed` (capability
/// `login-after-add-user-conflict`, which no longer excuses anything here).
enum AddUserConflictOutcome {
    /// Checks the exit status and statuses; returns the keys of the rows that were created.
    static func check<Key: Hashable>(_ server: TestServer, exitStatus: Int32, rows: [Key: (status: String, password: String)],
                                     stderr: String, file: StaticString = #filePath, line: UInt = #line) -> Set<Key> {
        XCTAssertEqual(exitStatus, 0, stderr, file: file, line: line)
        XCTAssertEqual(Set(rows.values.map(\.status)), ["created"], stderr, file: file, line: line)
        return Set(rows.filter { $0.value.status == "created" }.map(\.key))
    }
}
