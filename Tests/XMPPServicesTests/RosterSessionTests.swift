import XCTest
import XMPPConnection
import XMPPStanzas
@testable import XMPPServices

/// `RosterSession`'s copy policy (XEP-0237 versions, the store's generations, pushes) against a
/// scripted channel and a store that records what it was asked.
final class RosterSessionTests: XCTestCase {
    final class Store: RosterCopyStore {
        var copy: (items: [RosterItem], stamp: RosterCopyStamp)?
        var calls: [String] = []
        /// What the store answers to a write (nil: another process wrote meanwhile).
        var accepts = true
        init(_ copy: (items: [RosterItem], stamp: RosterCopyStamp)? = nil) { self.copy = copy }

        func stamp() -> RosterCopyStamp? { copy?.stamp }
        func load() -> (items: [RosterItem], stamp: RosterCopyStamp)? {
            calls.append("load")
            return copy
        }
        func replace(ver: String?, items: [RosterItem], ifGeneration seen: Int64) -> Int64? {
            calls.append("replace \(ver ?? "-") if \(seen)")
            guard accepts else { return nil }
            copy = (items, RosterCopyStamp(ver: ver, generation: seen + 10))
            return seen + 10
        }
        func apply(_ pushes: [RosterQuery], onto base: RosterCopyStamp) -> RosterCopyStamp? {
            calls.append("apply \(pushes.count) onto \(base.ver ?? "-")/\(base.generation)")
            guard accepts else { return nil }
            return RosterCopyStamp(ver: pushes.last?.ver, generation: base.generation + 1)
        }
    }

    static let versioned = "<stream:features xmlns:stream='http://etherx.jabber.org/streams'><ver xmlns='urn:xmpp:features:rosterver'/></stream:features>"
    static let fullRoster = """
        <iq xmlns='jabber:client' id='{id}' type='result'><query xmlns='jabber:iq:roster' ver='v2'>
        <item jid='romeo@example.net' subscription='both'><group>b</group><group>a</group></item></query></iq>
        """

    func session(_ channel: FakeChannel, _ store: Store?) throws -> RosterSession {
        RosterSession(channel: channel, close: {}, account: try JID("juliet@example.com"), store: store, warn: { _ in })
    }

    /// No stored copy: the roster is transferred, its groups sorted, and stored over "none" (generation 0).
    func testATransferredRosterIsStoredOverTheCopySeen() throws {
        let channel = try FakeChannel(features: Self.versioned, answers: [{ _ in [Self.fullRoster] }])
        let store = Store()
        let roster = try session(channel, store)
        try roster.sync()
        XCTAssertTrue(roster.transferred)
        XCTAssertEqual(roster.roster[try JID("romeo@example.net")]?.groups, ["a", "b"])
        XCTAssertEqual(store.calls, ["replace v2 if 0"])
    }

    /// The server says the stored version is current: the stored items are the roster, nothing is written.
    func testAnUnchangedRosterComesFromTheStore() throws {
        let channel = try FakeChannel(features: Self.versioned, answers: [{ _ in ["<iq xmlns='jabber:client' id='{id}' type='result'/>"] }])
        let item = RosterItem(jid: try JID("nurse@example.com"), subscription: .to)
        let store = Store(([item], RosterCopyStamp(ver: "v1", generation: 7)))
        let roster = try session(channel, store)
        try roster.sync()
        XCTAssertFalse(roster.transferred)
        XCTAssertEqual(Array(roster.roster.values), [item])
        XCTAssertEqual(channel.requests.first?.child("query", namespace: Namespace.roster)?[attribute: "ver"], "v1")
        XCTAssertEqual(store.calls, ["load"])
        // A push then patches the copy it follows (v1, generation 7), and the next one the patched copy.
        roster.apply([RosterQuery(ver: "v3", items: [RosterItem(jid: try JID("tybalt@example.com"), subscription: .none)])])
        roster.apply([RosterQuery(ver: "v4", items: [RosterItem(jid: item.jid, subscription: .remove)])])
        XCTAssertEqual(store.calls, ["load", "apply 1 onto v1/7", "apply 1 onto v3/8"])
        XCTAssertEqual(roster.roster.keys.map { $0.description }, ["tybalt@example.com"])
    }

    /// Another process stored another copy: pushes no longer name a stored copy (generation 0)
    /// and the session's roster still takes them.
    func testPushesNotAppliedLeaveTheSessionOnNoStoredCopy() throws {
        let channel = try FakeChannel(features: Self.versioned, answers: [{ _ in [Self.fullRoster] }])
        let store = Store()
        let roster = try session(channel, store)
        try roster.sync()
        store.accepts = false
        roster.apply([RosterQuery(ver: "v3", items: [RosterItem(jid: try JID("tybalt@example.com"), subscription: .none)])])
        roster.apply([RosterQuery(ver: "v4", items: [RosterItem(jid: try JID("mercutio@example.com"), subscription: .none)])])
        XCTAssertEqual(store.calls, ["replace v2 if 0", "apply 1 onto v2/10", "apply 1 onto v3/0"])
        XCTAssertEqual(roster.roster.count, 3)
    }

    /// Roster changes (`RosterChanges`, which the batch's roster phase sends too) go out
    /// pipelined, a window at a time closed by a ping; a contact the server refuses is named
    /// with its error and the rest are set; a push that arrives meanwhile is applied.
    func testPipelinedSetsNameTheRefusedContacts() throws {
        let ok = "<iq xmlns='jabber:client' id='{id}' type='result'/>"
        let refused = "<iq xmlns='jabber:client' id='{id}' type='error'><error type='modify'><not-acceptable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>"
        let push = "<iq xmlns='jabber:client' id='push1' type='set'><query xmlns='jabber:iq:roster' ver='v9'><item jid='c@example.com' subscription='none'/></query></iq>"
        let channel = try FakeChannel(answers: [{ _ in [ok] }, { _ in [refused] }, { _ in [ok] }, { _ in [push, ok] }, { _ in [ok] }])
        let roster = try session(channel, nil)
        let changes = RosterChanges(window: 2)
        for jid in ["a@example.com", "b@example.com", "c@example.com"] { changes.set(RosterItem(jid: try JID(jid), subscription: .none)) }
        try roster.send(changes)
        XCTAssertEqual(changes.refused.map(\.jid.description), ["b@example.com"])
        XCTAssertEqual(changes.refused.first?.error.condition, .notAcceptable)
        XCTAssertEqual(channel.requests.map { $0[attribute: "type"] ?? "" }, ["set", "set", "get", "set", "get"], "two windows, each closed by a ping")
        XCTAssertNotNil(roster.roster[try JID("c@example.com")], "the push that arrived meanwhile is applied")
    }
}
