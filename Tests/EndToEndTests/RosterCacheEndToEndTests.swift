import Foundation
import XCTest

/// The roster cache: versioned repeats transfer nothing, --cached works with the server down,
/// tools running at once share it, and completion reads it.
final class RosterCacheEndToEndTests: XCTestCase {
    func testRepeatListOfUnchangedRosterTransfersNoItems() throws {
        let w = try RosterWorld()
        let alice = try w.account("ca")
        let bob = w.tools.jid(ToolRunner.username("cb"))
        XCTAssertEqual(try w.roster(alice, ["add", bob, "--no-subscribe"]).status, 0)
        let first = try w.roster(alice, ["list", "--no-presence", "--trace"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let second = try w.roster(alice, ["list", "--no-presence", "--trace"])
        XCTAssertEqual(second.status, 0, second.stderr)
        let received = second.stderr.split(separator: "\n").filter { $0.hasPrefix("RECV ") }
        XCTAssertFalse(received.contains { $0.contains("jabber:iq:roster") }, "the server sent roster items again: \(received)")
        XCTAssertTrue(second.stderr.contains("<query xmlns='jabber:iq:roster' ver='"), second.stderr)
        XCTAssertEqual(second.stdout, first.stdout)
        XCTAssertEqual(second.stdout, "\(bob)\t\t\tnone\tunknown\t\n")
    }

    func testCachedListWorksWithTheServerStopped() throws {
        // A private server, so stopping it disturbs no other test.
        let server = try PrivateServer.start()
        defer { server.stop() }
        let w = try RosterWorld(serverArgs: server.serverArgs)
        let alice = try w.account("cs")
        let bob = w.tools.jid(ToolRunner.username("csb"))
        XCTAssertEqual(try w.roster(alice, ["add", bob, "--name", "Bob", "--group", "G", "--no-subscribe"]).status, 0)
        XCTAssertEqual(try w.roster(alice, ["list"]).status, 0)
        server.stop()
        let offline = try w.roster(alice, ["list"])
        XCTAssertEqual(offline.status, 6, offline.stderr)
        let cached = try w.roster(alice, ["list", "--cached", "--json"])
        XCTAssertEqual(cached.status, 0, cached.stderr)
        let list = try XCTUnwrap(try ToolRunner.json(cached) as? [[String: Any]])
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list[0]["jid"] as? String, bob)
        XCTAssertEqual(list[0]["name"] as? String, "Bob")
        XCTAssertEqual(list[0]["groups"] as? [String], ["G"])
        XCTAssertEqual(list[0]["presence"] as? String, "unknown")
        let completion = try w.tools.run("xmpp-roster", ["__complete", "contacts", "--account", alice])
        XCTAssertEqual(completion.stdout, bob + "\n")
        try server.restart()
        XCTAssertEqual(try w.roster(alice, ["list", "--no-presence"]).status, 0, "back after the restart")
    }

    func testCachedWithoutACacheIsNotFound() throws {
        let w = try RosterWorld()
        let alice = try w.account("cn")
        let r = try w.roster(alice, ["list", "--cached"])
        XCTAssertEqual(r.status, 4)
        XCTAssertEqual(r.stderr, "xmpp-roster: no cached roster for \(alice): run 'xmpp-roster list' once while online\n")
        XCTAssertEqual(try w.tools.run("xmpp-roster", ["__complete", "contacts", "--account", alice]).stdout, "")
    }

    func testToolsRunningAtOnceShareTheCache() throws {
        let w = try RosterWorld()
        let alice = try w.account("cc"), bob = try w.account("cd")
        for (account, contact) in [(alice, "p1"), (alice, "p2"), (bob, "q1")] {
            XCTAssertEqual(try w.roster(account, ["add", contact, "--no-subscribe"]).status, 0)
        }
        let results = Results()
        let group = DispatchGroup()
        for i in 0..<6 {
            let account = i % 2 == 0 ? alice : bob
            let args = i < 4 ? ["list", "--json"] : ["rename", i == 4 ? "p1" : "q1", "N\(i)"]
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let r = try? w.roster(account, args)
                results.add("\(args[0]) \(r?.status ?? -1) \(r?.stderr ?? "timeout")")
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success)
        XCTAssertEqual(results.all.sorted(), ["list 0 ", "list 0 ", "list 0 ", "list 0 ", "rename 0 ", "rename 0 "])
        let a = try w.contacts(alice, ["--cached"]), b = try w.contacts(bob, ["--cached"])
        XCTAssertEqual(a.keys.sorted(), ["p1@localhost", "p2@localhost"])
        XCTAssertEqual(a["p1@localhost"]?["name"] as? String, "N4")
        XCTAssertEqual(b["q1@localhost"]?["name"] as? String, "N5")
        let completion = try w.tools.run("xmpp-roster", ["__complete", "contacts", "--account", alice])
        XCTAssertEqual(completion.stdout, "p1@localhost\np2@localhost\n")
    }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
}

/// A second Prosody of this test's own (scripts/test-server), for tests that stop the server.
/// The script is run with posix_spawn and waitpid rather than Foundation's Process: a script
/// that leaves a daemon behind was not always reaped by Process here, hanging the test.
final class PrivateServer {
    let directory: String
    let serverArgs: [String]

    private init(directory: String, serverArgs: [String]) {
        self.directory = directory
        self.serverArgs = serverArgs
    }

    static func start() throws -> PrivateServer {
        _ = try TestServer.require()
        let (status, output) = try script(["start", "prosody"])
        guard status == 0 else { throw TestServerError.unusable("private server: \(output)") }
        var vars: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            var value = String(line[line.index(after: eq)...])
            if value.hasPrefix("'") && value.hasSuffix("'") && value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            vars[String(line[..<eq])] = value
        }
        guard let dir = vars["XT_DIR"], let host = vars["XT_HOST"], let port = vars["XT_PORT"], let ca = vars["XT_CA_FILE"] else {
            throw TestServerError.unusable("private server printed no settings: \(output)")
        }
        return PrivateServer(directory: dir, serverArgs: ["--server", "\(host):\(port)", "--ca-file", ca])
    }

    func stop() { _ = try? Self.script(["stop", directory]) }

    func restart() throws {
        let (status, output) = try Self.script(["restart", directory])
        guard status == 0 else { throw TestServerError.unusable("restart failed: \(output)") }
    }

    /// Runs scripts/test-server with stdout and stderr in a temporary file; returns status and output.
    private static func script(_ args: [String]) throws -> (Int32, String) {
        let log = NSTemporaryDirectory() + "xt-private-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: log) }
        let argv = ["/bin/sh", "-c", "exec \"$0\" \"$@\" >'\(log)' 2>&1 </dev/null", Paths.root + "/scripts/test-server"] + args
        var pid: pid_t = 0
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        let rc = posix_spawn(&pid, "/bin/sh", nil, nil, cArgs, environ)
        guard rc == 0 else { throw TestServerError.unusable("posix_spawn failed: \(rc)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let exited = (status & 0x7f) == 0
        return (exited ? (status >> 8) & 0xff : -1, output)
    }
}
