import XCTest
import XMPPStanzas
@testable import XMPPTools

/// What a reconnected watch prints: only what changed while it was away, nothing twice.
final class WatchMemoryTests: XCTestCase {
    private func jid(_ text: String) throws -> JID { try JID(text) }

    func testRosterChangesWhileAwayArePrintedOnce() throws {
        var memory = WatchMemory()
        let ann = RosterItem(jid: try jid("ann@x"), subscription: .both)
        let bob = RosterItem(jid: try jid("bob@x"), subscription: .to)
        memory.remember(roster: [ann.jid: ann, bob.jid: bob])
        var renamed = bob
        renamed.name = "Bob"
        let cid = RosterItem(jid: try jid("cid@x"))
        let changes = memory.changes(to: [bob.jid: renamed, cid.jid: cid])
        XCTAssertEqual(changes.map(\.jid.description), ["ann@x", "bob@x", "cid@x"])
        XCTAssertEqual(changes.first?.subscription, .remove)
        XCTAssertEqual(changes[1].name, "Bob")
        XCTAssertEqual(memory.changes(to: [bob.jid: renamed, cid.jid: cid]), [], "nothing twice")
    }

    func testPresenceIsPrintedWhenItChangesAndOfflineWhenNotAnnouncedAgain() throws {
        var memory = WatchMemory()
        let phone = try jid("ann@x/phone"), laptop = try jid("ann@x/laptop")
        XCTAssertTrue(memory.isNews(Presence(from: phone), from: phone))
        XCTAssertTrue(memory.isNews(Presence(from: laptop, show: .away), from: laptop))
        XCTAssertFalse(memory.isNews(Presence(from: phone), from: phone), "the same presence again")
        memory.announce(laptop)  // announced in the first session, which ends here
        // Reconnected: only the phone announces itself, unchanged.
        let before = memory.beginSession()
        memory.announce(phone)
        XCTAssertFalse(memory.isNews(Presence(from: phone), from: phone))
        XCTAssertEqual(memory.notAnnounced(since: before), [laptop])
        XCTAssertTrue(memory.isNews(Presence(from: laptop, show: .away), from: laptop), "back after it was gone")
    }

    func testARedeliveredRequestIsNotNews() throws {
        var memory = WatchMemory()
        let ann = try jid("ann@x")
        XCTAssertTrue(memory.isNews(Presence(type: .subscribe, from: ann), from: ann))
        XCTAssertFalse(memory.isNews(Presence(type: .subscribe, from: ann), from: ann))
        memory.printed(RosterItem(jid: ann, subscription: .from))
        XCTAssertTrue(memory.isNews(Presence(type: .subscribe, from: ann), from: ann), "a new request after the answer")
    }
}
