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

    /// The instance's XT_* line `name` (DIR/env, as scripts/test-server writes it).
    func setting(_ server: TestServer, _ name: String) throws -> String {
        let text = try String(contentsOfFile: server.directory + "/env", encoding: .utf8)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix(name + "=") }, "no \(name) in \(text)")
        return String(line.dropFirst(name.count + 1)).replacingOccurrences(of: "'", with: "")
    }

    /// Prosody `server` with mod_groups loaded and an empty groups file, once, by hand, as the
    /// man page says (modules_enabled, groups_file, a restart); the file's path.
    func enableProsodyGroups(_ server: TestServer) throws -> String {
        let file = server.directory + "/groups.txt"
        try Data().write(to: URL(fileURLWithPath: file))
        let config = server.directory + "/prosody.cfg.lua"
        let text = try String(contentsOfFile: config, encoding: .utf8)
            .replacingOccurrences(of: "modules_enabled = {", with: "modules_enabled = {\n  \"groups\";")
            .replacingOccurrences(of: "VirtualHost \"localhost\"", with: "groups_file = \"\(file)\"\nVirtualHost \"localhost\"")
        try Data(text.utf8).write(to: URL(fileURLWithPath: config))
        let restart = try Shell.run([Paths.root + "/scripts/test-server", "restart", server.directory], timeout: 120)
        XCTAssertEqual(restart.status, 0, restart.stderr)
        return file
    }
}
