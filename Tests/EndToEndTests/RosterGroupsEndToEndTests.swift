import Foundation
import XCTest

/// `xmpp-roster groups`: each group with its contacts, from the server and from the cache.
final class RosterGroupsEndToEndTests: XCTestCase {
    func testGroupsCountContactsInEachOfTheirGroups() throws {
        let w = try RosterWorld()
        let alice = try w.account("ga")
        let bob = w.tools.jid(ToolRunner.username("gb")), carol = w.tools.jid(ToolRunner.username("gc"))
        let dave = w.tools.jid(ToolRunner.username("gd"))
        XCTAssertEqual(try w.roster(alice, ["add", bob, "--group", "Work", "--group", "Friends", "--no-subscribe"]).status, 0)
        XCTAssertEqual(try w.roster(alice, ["add", carol, "--group", "Work", "--no-subscribe"]).status, 0)
        XCTAssertEqual(try w.roster(alice, ["add", dave, "--no-subscribe"]).status, 0)

        let json = try XCTUnwrap(try w.json(alice, ["groups", "--json"]) as? [[String: Any]])
        XCTAssertEqual(json.map { $0["group"] as? String }, ["Friends", "Work"])
        XCTAssertEqual(json.map { $0["contacts"] as? Int }, [1, 2])
        XCTAssertEqual(json[1]["jids"] as? [String], [bob, carol].sorted())
        XCTAssertEqual(json[0]["jids"] as? [String], [bob])

        let text = try w.roster(alice, ["groups"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stdout, "Friends\t1\nWork\t2\n")
        XCTAssertEqual(try w.roster(alice, ["groups", "--cached"]).stdout, text.stdout, "the cache holds the same groups")
    }

    func testGroupsOfAnEmptyRosterIsNothingAndCachedWithoutACacheIsNotFound() throws {
        let w = try RosterWorld()
        let alice = try w.account("ge")
        let cached = try w.roster(alice, ["groups", "--cached"])
        XCTAssertEqual(cached.status, 4, cached.stderr)
        let online = try w.roster(alice, ["groups", "--json"])
        XCTAssertEqual(online.status, 0, online.stderr)
        XCTAssertEqual(online.stdout, "[]\n")
    }
}
