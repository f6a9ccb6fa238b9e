import Foundation
import XCTest

/// xmpp-roster add with several JIDs: one connection, each contact added and asked, bad input refused before anything is sent.
final class RosterAddManyEndToEndTests: XCTestCase {
    func testSeveralContactsInOneGroupAtOnce() throws {
        let t = try ToolRunner(server: try TestServer.require())
        _ = try t.makeAccount("own", login: true)
        let others = try (0..<3).map { _ in try ToolRunner(server: t.server).makeAccount("mate").0 }
        let local = others.map { String($0.split(separator: "@")[0]) }
        let r = try t.run("xmpp-roster", ["add"] + [local[0], others[1], local[2]] + ["--group", "Teachers", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try XCTUnwrap(try ToolRunner.json(r) as? [[String: Any]])
        XCTAssertEqual(rows.compactMap { $0["jid"] as? String }, others)
        XCTAssertTrue(rows.allSatisfy { ($0["groups"] as? [String]) == ["Teachers"] && $0["subscription_requested"] as? Bool == true })
        let groups = try t.run("xmpp-roster", ["groups", "--json"])
        let teachers = (try ToolRunner.json(groups) as? [[String: Any]] ?? []).first { $0["group"] as? String == "Teachers" }
        XCTAssertEqual(teachers?["contacts"] as? Int, 3)

        let bad = try t.run("xmpp-roster", ["add", "fresh-" + local[0], "not a jid@@", "--group", "X"])
        XCTAssertEqual(bad.status, 9, bad.stderr)
        let list = try t.run("xmpp-roster", ["list", "--cached", "--json"])
        XCTAssertFalse(list.stdout.contains("fresh-"), "a bad JID sends nothing")
        let named = try t.run("xmpp-roster", ["add", local[0], local[1], "--name", "Both"])
        XCTAssertEqual(named.status, 2, named.stderr)
    }
}
