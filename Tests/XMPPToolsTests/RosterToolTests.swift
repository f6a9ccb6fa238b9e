import Arguments
import XCTest
import XMPPStanzas
@testable import XMPPTools

/// xmpp-roster's pure parts: contact addresses, presence per contact, list filters.
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

    private func presence(_ xml: Presence.Kind?, from: String, show: Presence.Show? = nil, status: String? = nil, priority: Int? = nil) throws -> Presence {
        Presence(type: xml, from: try JID(from), show: show, status: status, priority: priority)
    }

    func testPresenceBookPicksTheBestResource() throws {
        var book = PresenceBook(account: account)
        let bob = try JID("bob@example.org")
        XCTAssertEqual(book.presence(of: bob), .offline)
        book.add(try presence(nil, from: "bob@example.org/phone", show: .away, status: "walking", priority: 5))
        book.add(try presence(nil, from: "bob@example.org/desk", show: .dnd, status: "busy", priority: 10))
        XCTAssertEqual(book.presence(of: bob).state, "dnd", "highest priority wins")
        XCTAssertEqual(book.presence(of: bob).status, "busy")
        XCTAssertEqual(book.presence(of: bob).resources.map(\.resource), ["desk", "phone"])
        book.add(try presence(.unavailable, from: "bob@example.org/desk"))
        XCTAssertEqual(book.presence(of: bob).state, "away")
        book.add(try presence(nil, from: "bob@example.org/laptop", priority: 5))
        XCTAssertEqual(book.presence(of: bob).state, "online", "on equal priority the more available show wins")
        book.add(try presence(.unavailable, from: "bob@example.org"))
        XCTAssertEqual(book.presence(of: bob), .offline, "unavailable from the bare JID ends every resource")
        book.add(try presence(nil, from: "alice@example.org/other"))
        book.add(try presence(.subscribe, from: "carol@example.org"))
        XCTAssertEqual(book.presence(of: account), .offline, "the account's own presence is not a contact's")
        XCTAssertEqual(book.presence(of: try JID("carol@example.org")), .offline, "a request is not presence")
    }

    func testListFilters() throws {
        let item = RosterItem(jid: try JID("bob@example.org"), subscription: .to, ask: true, groups: ["Work"])
        let online = ContactPresence(state: "away", status: nil, resources: [])
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
        let p = ContactPresence(state: "chat", status: "hi", resources: [.init(resource: "r", show: "chat", status: "hi", priority: 1)])
        XCTAssertEqual(RosterOutput.json(item, presence: p).compact,
                       #"{"jid":"bob@example.org","name":"Bob","groups":["A"],"subscription":"both","ask":false,"approved":false,"#
                       + #""presence":"chat","status":"hi","resources":[{"resource":"r","show":"chat","status":"hi","priority":1}]}"#)
        XCTAssertEqual(RosterOutput.cell("a\tb\nc\u{1B}[31m\u{202E}"), #"a\tb\nc\e[31mU+202E"#)
    }
}
