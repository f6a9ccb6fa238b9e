import Foundation
import XCTest

/// Issue 36: ejabberd's HTTP API writes roster items straight into accounts' rosters
/// (mod_admin_extra's add_rosteritem, with the administrator's credentials as the packaged
/// api_permissions ask), some nine times faster than the six stanzas per pair of a log-in per
/// account (DESIGN-NOTES). What the per-account path guarantees, checked here for the direct
/// write: two accounts online when both sides of their pair are written, subscription both, each
/// get the roster push and the other's presence at once, and the other's later presence.
/// ejabberd 24.12 takes the item's groups as `groups`, a list (and refuses `group`); 23.01 as
/// `group`, a string (and refuses `groups`).
final class EjabberdAPIRosterEndToEndTests: XCTestCase {
    func testEjabberd24DirectRosterWriteDeliversPresenceToOnlineAccounts() throws {
        let server = try TestServer.startPrivate("ejabberd24", ["--defaults", "--admin", "boss"])
        defer { server.stop() }
        try checkDirectWrite(server)
    }

    func testEjabberdDirectRosterWriteDeliversPresenceToOnlineAccounts() throws {
        let server = try TestServer.startPrivate("ejabberd", ["--defaults", "--admin", "boss"])
        defer { server.stop() }
        try checkDirectWrite(server)
    }

    private func checkDirectWrite(_ server: TestServer) throws {
        let api = try setting(server, "XT_API_URL")
        let listsGroups = !(try setting(server, "XT_VERSION")).hasPrefix("23.")
        let tag = String(ToolRunner.username("").prefix(5))
        let (a, b) = ("da\(tag)", "db\(tag)")
        var watchers: [String: Watcher] = [:]
        for (user, password) in [("boss", "pw-boss"), (a, "pw-\(a)"), (b, "pw-\(b)")] {
            let r = try Shell.run([Paths.root + "/scripts/test-server", "ctl", server.directory, "register", user, "localhost", password], timeout: 60)
            XCTAssertEqual(r.status, 0, r.stderr)
            guard user != "boss" else { continue }
            let home = try ToolRunner(server: server)
            let file = home.home + "/password"
            try Data("\(password)\n".utf8).write(to: URL(fileURLWithPath: file))
            XCTAssertEqual(chmod(file, 0o600), 0)
            let login = try home.run("xmpp-login", ["\(user)@localhost", "--password-command", "cat '\(file)'"] + home.serverArgs)
            XCTAssertEqual(login.status, 0, login.stderr)
            let watcher = try Watcher(argv: [Paths.binaries + "/xmpp-roster", "watch", "--json", "-a", "\(user)@localhost"] + home.serverArgs,
                                      environment: home.environment)
            try watcher.waitFor(timeout: 30) { $0["event"] as? String == "online" }
            watchers[user] = watcher
        }
        /// add_rosteritem as the administrator: the HTTP status and body.
        func add(_ owner: String, _ contact: String, groupsAsList: Bool) throws -> (Int, String) {
            let group = groupsAsList ? "\"groups\":[\"Class\"]" : "\"group\":\"Class\""
            let body = "{\"localuser\":\"\(owner)\",\"localhost\":\"localhost\",\"user\":\"\(contact)\",\"host\":\"localhost\","
                + "\"nick\":\"\(contact)\",\(group),\"subs\":\"both\"}"
            let r = try Shell.run(["/usr/bin/curl", "-sS", "-K", "-", "--cacert", server.caFile, "-H", "Content-Type: application/json",
                                   "-d", body, "-w", "\n%{http_code}", api + "/add_rosteritem"],
                                  stdin: Data("user = \"boss@localhost:pw-boss\"\n".utf8), timeout: 30)
            XCTAssertEqual(r.status, 0, r.stderr)
            let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
        }
        // The other version's form of the groups is refused, and nothing is written.
        let wrong = try add(a, b, groupsAsList: !listsGroups)
        XCTAssertEqual(wrong.0, 400, "ejabberd \(listsGroups ? "24.12 refuses group" : "23.01 refuses groups"): \(wrong.1)")
        for (owner, contact) in [(a, b), (b, a)] {
            let (status, text) = try add(owner, contact, groupsAsList: listsGroups)
            XCTAssertEqual(status, 200, text)
            XCTAssertEqual(text, "0", "add_rosteritem's result code")
        }
        for (owner, contact) in [(a, b), (b, a)] {
            let watcher = try XCTUnwrap(watchers[owner])
            let push = try watcher.waitFor(timeout: 30) { $0["event"] as? String == "roster_push" && $0["jid"] as? String == "\(contact)@localhost" }
            XCTAssertEqual(push["subscription"] as? String, "both")
            XCTAssertEqual(push["groups"] as? [String], ["Class"])
            // The contact's presence at once: no probe, no re-log-in.
            try watcher.waitFor(timeout: 30) {
                $0["event"] as? String == "presence" && $0["jid"] as? String == "\(contact)@localhost" && $0["presence"] as? String == "online"
            }
        }
        // A later change of presence reaches the other side too: its session knows the new contact.
        XCTAssertEqual(watchers[b]?.stop(SIGTERM), 0)
        try XCTUnwrap(watchers[a]).waitFor(timeout: 30) {
            $0["event"] as? String == "presence" && $0["jid"] as? String == "\(b)@localhost" && $0["presence"] as? String == "offline"
        }
        XCTAssertEqual(watchers[a]?.stop(SIGTERM), 0)
    }
}
