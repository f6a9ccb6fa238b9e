import XCTest
import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// RosterService against RFC 6121 §2 and XEP-0237's own examples.
final class RosterServiceTests: XCTestCase {
    private let versioned = "<stream:features xmlns:stream='http://etherx.jabber.org/streams'><ver xmlns='urn:xmpp:features:rosterver'/></stream:features>"

    /// RFC 6121 §2.1.3: the roster result with its items.
    func testFetchReadsTheRosterResult() throws {
        let channel = try FakeChannel(replies: ["""
            <iq xmlns='jabber:client' id='{id}' to='juliet@example.com/balcony' type='result'>
              <query xmlns='jabber:iq:roster' ver='ver11'>
                <item jid='romeo@example.net' name='Romeo' subscription='both'><group>Friends</group></item>
                <item jid='mercutio@example.com' name='Mercutio' subscription='from'/>
                <item jid='benvolio@example.net' name='Benvolio' subscription='both'/>
              </query>
            </iq>
            """])
        guard case .full(let roster) = try RosterService.fetch(on: channel, cachedVer: nil) else { return XCTFail("expected a roster") }
        XCTAssertEqual(roster.items.map(\.jid.description), ["romeo@example.net", "mercutio@example.com", "benvolio@example.net"])
        XCTAssertEqual(roster.items.first?.groups, ["Friends"])
        XCTAssertEqual(roster.ver, "ver11")
        // No versioning advertised: the get carries no ver attribute.
        XCTAssertNil(channel.requests.first?.child("query", namespace: Namespace.roster)?[attribute: "ver"])
    }

    /// XEP-0237 §3: an empty result to a versioned get means the cached copy is current.
    func testAnEmptyResultToAVersionedGetIsUnchanged() throws {
        let channel = try FakeChannel(features: versioned, answers: [{ _ in ["<iq xmlns='jabber:client' id='{id}' type='result'/>"] }])
        XCTAssertEqual(try RosterService.fetch(on: channel, cachedVer: "ver14"), .unchanged)
        XCTAssertEqual(channel.requests.first?.child("query", namespace: Namespace.roster)?[attribute: "ver"], "ver14")
    }

    /// An empty result when no version was sent is the server breaking the protocol, not "unchanged".
    func testAnEmptyResultToAnUnversionedGetIsAViolation() throws {
        let channel = try FakeChannel(replies: ["<iq xmlns='jabber:client' id='{id}' type='result'/>"])
        XCTAssertThrowsError(try RosterService.fetch(on: channel, cachedVer: "ver14")) { error in
            guard case ConnectionError.protocolViolation = error else { return XCTFail("\(error)") }
        }
    }

    /// A versioning server without a cached copy is sent an empty ver (XEP-0237 §3).
    func testAVersioningServerIsToldTheClientVersionsEvenWithoutACache() throws {
        let channel = try FakeChannel(features: versioned, answers: [{ _ in
            ["<iq xmlns='jabber:client' id='{id}' type='result'><query xmlns='jabber:iq:roster' ver='1'/></iq>"]
        }])
        guard case .full(let roster) = try RosterService.fetch(on: channel, cachedVer: nil) else { return XCTFail("expected a roster") }
        XCTAssertEqual(roster.ver, "1")
        XCTAssertEqual(channel.requests.first?.child("query", namespace: Namespace.roster)?[attribute: "ver"], "")
    }

    /// RFC 6121 §2.5.3: removing a contact that is not there is item-not-found.
    func testRemovingAnUnknownContactReportsItemNotFound() throws {
        let channel = try FakeChannel(replies: ["""
            <iq xmlns='jabber:client' id='{id}' type='error'><error type='modify'>
              <item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>
            """])
        XCTAssertThrowsError(try RosterService.remove(try JID("nurse@example.com"), on: channel)) { error in
            guard case ConnectionError.stanzaError(let e) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(e.condition, .itemNotFound)
        }
        let item = channel.requests.first?.child("query", namespace: Namespace.roster)?.child("item")
        XCTAssertEqual(item?[attribute: "subscription"], "remove")
    }

    /// RFC 6121 §2.1.6: a push is legitimate only from the account's bare JID (or without from).
    func testPushesFromOthersAreNotRosterPushes() throws {
        let account = try JID("juliet@example.com/balcony")
        func push(from: String?) throws -> Iq {
            let fromAttribute = from.map { " from='\($0)'" } ?? ""
            return try Iq(element: parseXMLDocument("""
                <iq xmlns='jabber:client' id='a78b4q6ha463'\(fromAttribute) type='set'>
                  <query xmlns='jabber:iq:roster'><item jid='nurse@example.com'/></query></iq>
                """))
        }
        XCTAssertNotNil(RosterService.push(in: try push(from: nil), account: account))
        XCTAssertNotNil(RosterService.push(in: try push(from: "juliet@example.com"), account: account))
        XCTAssertNil(RosterService.push(in: try push(from: "mallory@evil.example"), account: account))
        XCTAssertNil(RosterService.push(in: try push(from: "juliet@example.com/other"), account: account))
    }
}
