import Foundation
import XCTest

/// `list` learns contacts' presence without announcing the account (issue 19): a contact who
/// watches sees no presence from it, where the server answers client probes (`client-probes`).
/// Every command takes the password (no cached session), so it runs on jabberd2 too.
final class RosterPresenceSnapshotEndToEndTests: XCTestCase {
    private struct Accounts {
        let tools: ToolRunner
        let password = "pw-" + UUID().uuidString

        func make(_ prefix: String) throws -> String {
            let jid = tools.jid(ToolRunner.username(prefix))
            let r = try tools.run("xmpp-register", [jid] + tools.serverArgs, password: password)
            XCTAssertEqual(r.status, 0, "register failed: \(r.stderr)")
            return jid
        }

        @discardableResult
        func roster(_ account: String, _ args: [String]) throws -> RunResult {
            let r = try tools.run("xmpp-roster", args + ["-a", account] + tools.serverArgs, password: password)
            XCTAssertEqual(r.status, 0, "xmpp-roster \(args) failed: \(r.stderr)")
            return r
        }

        func befriend(_ a: String, _ b: String) throws {
            try roster(a, ["add", b])
            try roster(b, ["approve", a, "--add-back"])
            try roster(a, ["approve", b])
        }

        func watch(_ account: String, _ args: [String] = []) throws -> Watcher {
            var env = tools.environment
            env["XMPP_PASSWORD"] = password
            let w = try Watcher(argv: [Paths.binaries + "/xmpp-roster", "watch", "--json", "-a", account] + tools.serverArgs + args,
                                environment: env)
            _ = try w.waitFor(timeout: 30) { $0["event"] as? String == "online" }
            return w
        }

        func presence(_ account: String) throws -> [String: [String: Any]] {
            let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: roster(account, ["list", "--json"]).stdoutData) as? [[String: Any]])
            var byJID: [String: [String: Any]] = [:]
            for contact in list { byJID[contact["jid"] as? String ?? ""] = contact }
            return byJID
        }
    }

    func testListLearnsPresenceWithoutAnnouncingTheAccount() throws {
        let server = try TestServer.require()
        try server.require("register", "accounts are made by in-band registration")
        try server.require("register-unthrottled", "the test registers four accounts")
        let a = Accounts(tools: try ToolRunner(server: server))
        let alice = try a.make("na"), bob = try a.make("nb"), carol = try a.make("nc"), dave = try a.make("nd")
        for contact in [bob, carol, dave] { try a.befriend(alice, contact) }
        let bobWatch = try a.watch(bob)
        let carolWatch = try a.watch(carol, ["--show", "away", "--status", "at lunch"])

        for run in 1...3 {
            let view = try a.presence(alice)
            XCTAssertEqual(view[bob]?["presence"] as? String, "online", "run \(run)")
            XCTAssertEqual(view[carol]?["presence"] as? String, "away", "run \(run)")
            XCTAssertEqual(view[carol]?["status"] as? String, "at lunch", "run \(run)")
            XCTAssertEqual(view[dave]?["presence"] as? String, "offline", "run \(run)")
        }

        // A marker bob sees after anything the lists made the server send: alice online with a status.
        let marker = try a.watch(alice, ["--status", "marker"])
        try bobWatch.waitFor { $0["jid"] as? String == alice && $0["status"] as? String == "marker" }
        // Presence from one of alice's sessions has a resource; the server's answer to bob's own
        // probe when alice is offline (unavailable from her bare JID) does not, and is not hers.
        let fromAlice = bobWatch.events.filter { $0["event"] as? String == "presence" && $0["jid"] as? String == alice && $0["resource"] is String }
        if server.has("client-probes") {
            XCTAssertEqual(fromAlice.map { $0["status"] as? String }, ["marker"], "bob saw only the marker: \(fromAlice)")
        } else {
            // jabberd2 drops client probes: list goes online there, as the man page says.
            XCTAssertGreaterThan(fromAlice.count, 1, "\(fromAlice)")
        }
        XCTAssertEqual(marker.stop(SIGTERM), 0)
        XCTAssertEqual(bobWatch.stop(SIGTERM), 0)
        XCTAssertEqual(carolWatch.stop(SIGTERM), 0)
    }
}
