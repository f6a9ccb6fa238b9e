import Foundation
import XCTest

/// What the shared-groups end-to-end tests share: each starts its own private server (so runs
/// once, in the first pass of scripts/test's matrix); rosters are read by logging in.
extension XCTestCase {
    /// `account`'s contacts as JID → groups, by a fresh log-in, each subscribed both ways (as
    /// the servers' shared groups give them).
    func sharedContacts(_ t: ToolRunner, _ account: String, _ password: String,
                        file: StaticString = #filePath, line: UInt = #line) throws -> [String: [String]] {
        let r = try t.run("xmpp-roster", ["list", "--no-presence", "--json", "-a", account] + t.serverArgs, password: password)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        var out: [String: [String]] = [:]
        for contact in try XCTUnwrap(try ToolRunner.json(r) as? [[String: Any]], file: file, line: line) {
            XCTAssertEqual(contact["subscription"] as? String, "both", "\(contact)", file: file, line: line)
            out[contact["jid"] as? String ?? ""] = (contact["groups"] as? [String] ?? []).sorted()
        }
        return out
    }
}
