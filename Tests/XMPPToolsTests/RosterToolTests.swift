import Arguments
import XCTest
import XMPPServices
import XMPPStanzas
@testable import XMPPTools

/// xmpp-roster's pure parts: contact addresses, list filters.
final class RosterToolTests: XCTestCase {
    private let account = try! JID("alice@example.org")

    func testContactAddresses() throws {
        XCTAssertEqual(try ContactAddress.resolve("Bob", account: account).description, "bob@example.org")
        XCTAssertEqual(try ContactAddress.resolve(" carol@other.example ", account: account).description, "carol@other.example")
        for bad in ["alice", "ALICE@example.org", "bob@example.org/phone", "a b", "@example.org", ""] {
            XCTAssertThrowsError(try ContactAddress.resolve(bad, account: account), bad) {
                XCTAssertEqual(($0 as? ToolFailure)?.code, .badInput, bad)
            }
        }
    }

    func testListFilters() throws {
        let item = RosterItem(jid: try JID("bob@example.org"), subscription: .to, ask: true, groups: ["Work"])
        let online = ContactPresence(state: .away, status: nil, resources: [])
        XCTAssertTrue(RosterTool.List.Filters().accepts(item, .unknown))
        XCTAssertTrue(RosterTool.List.Filters(online: true).accepts(item, online))
        XCTAssertFalse(RosterTool.List.Filters(online: true).accepts(item, .offline))
        XCTAssertTrue(RosterTool.List.Filters(groups: ["Home", "Work"]).accepts(item, .offline))
        XCTAssertFalse(RosterTool.List.Filters(groups: ["Home"]).accepts(item, .offline))
        XCTAssertTrue(RosterTool.List.Filters(subscription: .to).accepts(item, .offline))
        XCTAssertTrue(RosterTool.List.Filters(subscription: .ask).accepts(item, .offline))
        XCTAssertFalse(RosterTool.List.Filters(subscription: .both).accepts(item, .offline))
    }

    func testListOnlineNeedsPresence() throws {
        func parse(_ words: String) throws(ArgumentError) {
            _ = try ArgumentParser.parse(words.split(separator: " ").map(String.init)[...], spec: RosterTool.spec)
        }
        XCTAssertThrowsError(try parse("list --online --cached")) { error in
            XCTAssertEqual((error as? ArgumentError)?.description,
                           "xmpp-roster: --online and --cached cannot be used together: the cache holds no presence")
        }
        XCTAssertThrowsError(try parse("list --no-presence --online")) { error in
            XCTAssertEqual((error as? ArgumentError)?.reason,
                           .conflictingOptions("--online", "--no-presence", reason: "--online needs presence"))
        }
        XCTAssertNoThrow(try parse("list --cached --no-presence"), "presence is unknown either way")
    }

    func testJSONOfAContact() throws {
        let item = RosterItem(jid: try JID("bob@example.org"), name: "Bob", subscription: .both, groups: ["A"])
        XCTAssertEqual(RosterOutput.json(item, presence: nil).compact,
                       #"{"jid":"bob@example.org","name":"Bob","groups":["A"],"subscription":"both","ask":false}"#)
        let p = ContactPresence(state: .chat, status: "hi", resources: [.init(resource: "r", state: .chat, status: "hi", priority: 1)])
        XCTAssertEqual(RosterOutput.json(item, presence: p).compact,
                       #"{"jid":"bob@example.org","name":"Bob","groups":["A"],"subscription":"both","ask":false,"approved":false,"#
                       + #""presence":"chat","status":"hi","resources":[{"resource":"r","show":"chat","status":"hi","priority":1}]}"#)
        XCTAssertEqual(RosterOutput.cell("a\tb\nc\u{1B}[31m\u{202E}"), #"a\tb\nc\e[31mU+202E"#)
    }
}
