import Foundation
import XCTest

/// Two tools of one account at once, on one cache (issue 8): neither corrupts nor blocks the
/// other, and a corrupt cache file is rebuilt with a warning. Many programs changing the same
/// files at once lose nothing ("Nothing lost, no one let in").
final class ConcurrentUseEndToEndTests: XCTestCase {
    /// Runs `tool JID args…` for every JID, eight at a time (`xargs -P 8`); xargs exits 0 only
    /// when every run did.
    private func eachAtOnce(_ tools: ToolRunner, _ jids: [String], _ tool: String, _ args: [String],
                            env: [String: String]) throws -> RunResult {
        var environment = tools.environment
        for (k, v) in env { environment[k] = v }
        return try Shell.run(["/bin/sh", "-c", "exec xargs -P 8 -I JID \"$0\" JID \"$@\"", Paths.binaries + "/" + tool] + args,
                             stdin: Data((jids.joined(separator: "\n") + "\n").utf8), environment: environment, timeout: 180)
    }

    func testConcurrentLogInsKeepEveryAccountWithItsSettings() throws {
        try TestServer.require().requireLoginAccounts()
        let server = try TestServer.require()
        let tools = try ToolRunner(server: server)
        let jids = (0..<24).map { _ in tools.jid(ToolRunner.username("pl")) }
        let password = ["XMPP_PASSWORD": "pw-" + UUID().uuidString]
        let registered = try eachAtOnce(tools, jids, "xmpp-register", tools.serverArgs, env: password)
        XCTAssertEqual(registered.status, 0, registered.stderr)
        let loggedIn = try eachAtOnce(tools, jids, "xmpp-login", tools.serverArgs + ["-q"], env: password)
        XCTAssertEqual(loggedIn.status, 0, loggedIn.stderr)

        let config = tools.home + "/config/xmpp-tools"
        let sessions = try FileManager.default.contentsOfDirectory(atPath: config + "/sessions")
        XCTAssertEqual(Set(sessions), Set(jids))
        let file = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config + "/accounts.json")))
            as? [String: Any])
        let accounts = try XCTUnwrap(file["accounts"] as? [String: [String: Any]])
        XCTAssertEqual(Set(accounts.keys), Set(jids), "every log-in is remembered")
        for jid in jids {
            let settings = accounts[jid] ?? [:]
            XCTAssertEqual(settings["server"] as? String, server.host, jid)
            XCTAssertEqual(settings["ca_file"] as? String, server.caFile, jid)
            XCTAssertEqual(settings["used_scram"] as? Bool, true, "\(jid): PLAIN stays refused")
        }
        XCTAssertTrue(jids.contains(file["active"] as? String ?? ""))
        // Settings are used: a later command needs no --server or --ca-file.
        let status = try tools.run("xmpp-login", ["status", "-a", jids[5]])
        XCTAssertEqual(status.status, 0, status.stderr)
    }

    func testParallelVCardSetsOfOneAccountKeepEveryField() throws {
        let w = try RosterWorld()
        let alice = try w.account("pv")
        // Without the lock about one round in two lost a field here (Prosody, 2 cores).
        let fields = [("nickname", "nick"), ("fullname", "Full"), ("note", "note"), ("title", "Title")]
        for round in 0..<6 {
            let script = fields.enumerated().map { i, f in "\"$0\" set -q --\(f.0) \"\(f.1) $2\" -a \"$1\" & p\(i)=$!" }
                .joined(separator: "\n") + "\nwait $p0 && wait $p1 && wait $p2 && wait $p3"
            let r = try Shell.run(["/bin/sh", "-c", script, Paths.binaries + "/xmpp-vcard", alice, String(round)],
                                  environment: w.tools.environment, timeout: 60)
            XCTAssertEqual(r.status, 0, r.stderr)
            let card = try XCTUnwrap(try ToolRunner.json(try w.tools.run("xmpp-vcard", ["get", "--json", "-a", alice])) as? [String: Any])
            for (field, value) in fields {
                XCTAssertEqual(card[field] as? String, "\(value) \(round)", "round \(round): \(field) was lost")
            }
        }
    }

    func testWatchAndVCardSetAndRosterListAtOnce() throws {
        let w = try RosterWorld()
        let alice = try w.account("cw")
        let bob = try w.account("cb")
        XCTAssertEqual(try w.roster(alice, ["add", bob, "--name", "Bob", "--no-subscribe"]).status, 0)
        let watcher = try w.watch(alice)
        // While watch holds a session and writes roster pushes to the cache, other tools of the
        // same account write vCards and rosters to the same cache file.
        for i in 0..<5 {
            let set = try w.tools.run("xmpp-vcard", ["set", "--nickname", "nick \(i)", "-a", alice])
            XCTAssertEqual(set.status, 0, set.stderr)
            let rename = try w.roster(alice, ["rename", bob, "Bob \(i)"])
            XCTAssertEqual(rename.status, 0, rename.stderr)
            XCTAssertFalse(rename.stderr.contains("locked") || rename.stderr.contains("busy"), rename.stderr)
        }
        // watch saw every push and is still running: no resource conflict knocked it off.
        try watcher.waitFor { ($0["event"] as? String) == "roster_push" && (($0["name"] as? String) ?? "").hasSuffix("4") }
        XCTAssertEqual(watcher.stop(SIGTERM), 0, watcher.stderr)
        let cached = try w.contacts(alice, ["--cached"])
        XCTAssertEqual(cached[bob]?["name"] as? String, "Bob 4", "the cache holds the last write")
        let nick = try w.tools.run("xmpp-vcard", ["get", "--cached", "--field", "nickname", "-a", alice])
        XCTAssertEqual(nick.stdout, "nick 4\n", nick.stderr)
    }

    func testCorruptCacheIsRebuiltWithAWarning() throws {
        let w = try RosterWorld()
        let alice = try w.account("cc")
        XCTAssertEqual(try w.roster(alice, ["list", "--no-presence"]).status, 0)
        let path = w.tools.home + "/cache/xmpp-tools/cache.sqlite3"
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try Data(repeating: 0x5A, count: 16384).write(to: URL(fileURLWithPath: path))
        let r = try w.roster(alice, ["list", "--no-presence"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("rebuilt"), r.stderr)
        let again = try w.roster(alice, ["list", "--no-presence"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "", "rebuilt once, then quiet")
    }
}
