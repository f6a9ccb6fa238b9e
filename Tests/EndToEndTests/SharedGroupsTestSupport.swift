import Foundation
import XCTest

/// What the shared-groups end-to-end tests share: each runs once, in its own server's pass, on
/// a private server; rosters are read by logging in.
extension XCTestCase {
    /// Skips unless this is the `pass` pass (its servers are private ones the test starts).
    func runOnce(_ pass: String) throws {
        let env = ProcessInfo.processInfo.environment
        guard (env["XT_SERVER"] ?? pass) == pass && env["XT_DEFAULTS"] != "1" else {
            throw XCTSkip("runs once, in the \(pass) pass (its own private server)")
        }
    }

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
