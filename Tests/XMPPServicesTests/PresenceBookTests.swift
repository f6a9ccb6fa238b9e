import XCTest
import XMPPServices
import XMPPStanzas

/// One state per contact from the presences that arrived (RFC 6121 §4.7.2.1 priority and show).
final class PresenceBookTests: XCTestCase {
    private let account = try! JID("alice@example.org")

    private func presence(_ xml: Presence.Kind?, from: String, show: Presence.Show? = nil, status: String? = nil, priority: Int? = nil) throws -> Presence {
        Presence(type: xml, from: try JID(from), show: show, status: status, priority: priority)
    }

    func testPresenceBookPicksTheBestResource() throws {
        var book = PresenceBook(account: account)
        let bob = try JID("bob@example.org")
        XCTAssertEqual(book.presence(of: bob), .offline)
        book.add(try presence(nil, from: "bob@example.org/phone", show: .away, status: "walking", priority: 5))
        book.add(try presence(nil, from: "bob@example.org/desk", show: .dnd, status: "busy", priority: 10))
        XCTAssertEqual(book.presence(of: bob).state, .dnd, "highest priority wins")
        XCTAssertEqual(book.presence(of: bob).status, "busy")
        XCTAssertEqual(book.presence(of: bob).resources.map(\.resource), ["desk", "phone"])
        book.add(try presence(.unavailable, from: "bob@example.org/desk"))
        XCTAssertEqual(book.presence(of: bob).state, .away)
        book.add(try presence(nil, from: "bob@example.org/laptop", priority: 5))
        XCTAssertEqual(book.presence(of: bob).state, .online, "on equal priority the more available show wins")
        book.add(try presence(.unavailable, from: "bob@example.org"))
        XCTAssertEqual(book.presence(of: bob), .offline, "unavailable from the bare JID ends every resource")
        book.add(try presence(nil, from: "alice@example.org/other"))
        book.add(try presence(.subscribe, from: "carol@example.org"))
        XCTAssertEqual(book.presence(of: account), .offline, "the account's own presence is not a contact's")
        XCTAssertEqual(book.presence(of: try JID("carol@example.org")), .offline, "a request is not presence")
    }


    func testStatesKeepTheirPrintedNames() {
        // The JSON field `presence` and the text column carry these words: stable names.
        XCTAssertEqual(ContactPresence.State.allCases.map(\.rawValue),
                       ["online", "chat", "away", "xa", "dnd", "offline", "unknown"])
        XCTAssertEqual(ContactPresence.State(show: nil), .online)
        XCTAssertEqual(ContactPresence.State(show: .xa), .xa)
        XCTAssertFalse(ContactPresence.State.offline.isAvailable)
        XCTAssertFalse(ContactPresence.State.unknown.isAvailable)
        XCTAssertTrue(ContactPresence.State.dnd.isAvailable)
    }
}
