import XCTest
import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// PresenceService: the ping barrier, roster-push acknowledgement and refusing other requests.
final class PresenceServiceTests: XCTestCase {
    private var account: JID { get throws { try JID("juliet@example.com/balcony") } }

    /// Everything the server sends before the pong is returned; the pong ends the wait.
    func testTheBarrierReturnsWhatCameBeforeThePong() throws {
        let channel = try FakeChannel(domain: "example.com", answers: [{ ping in [
            "<presence xmlns='jabber:client' from='romeo@example.net/orchard'><show>away</show><status>in the orchard</status></presence>",
            "<presence xmlns='jabber:client' from='nurse@example.com' type='subscribe'/>",
            "<iq xmlns='jabber:client' type='result' id='\(ping[attribute: "id"] ?? "")'/>",
        ] }])
        let events = try PresenceService.barrier(on: channel, account: try account,
                                                 sending: [PresenceService.available(priority: -1).element])
        XCTAssertEqual(events.count, 2)
        guard case .presence(let first) = events.first else { return XCTFail("\(events)") }
        XCTAssertEqual(first.status, "in the orchard")
        XCTAssertEqual(channel.sent.first?.name, "presence")
        XCTAssertEqual(channel.requests.last?[attribute: "to"], "example.com")
    }

    /// RFC 6121 §2.1.6: a roster push is acknowledged with a result.
    func testARosterPushIsAcknowledged() throws {
        let channel = try FakeChannel(answers: [])
        channel.unsolicited = ["""
            <iq xmlns='jabber:client' id='push1' type='set'><query xmlns='jabber:iq:roster'>
              <item jid='nurse@example.com' subscription='none'/></query></iq>
            """]
        let event = try PresenceService.next(on: channel, account: try account, deadline: .now + .seconds(1))
        guard case .rosterPush(let query) = event else { return XCTFail("\(event)") }
        XCTAssertEqual(query.items.first?.jid.description, "nurse@example.com")
        XCTAssertEqual(channel.sent.last?[attribute: "type"], "result")
        XCTAssertEqual(channel.sent.last?[attribute: "id"], "push1")
    }

    /// RFC 6120 §8.2.3: any other request gets an error reply, never silence.
    func testOtherRequestsAreRefusedWithServiceUnavailable() throws {
        let channel = try FakeChannel(answers: [])
        channel.unsolicited = [
            "<iq xmlns='jabber:client' id='v1' from='mallory@evil.example/x' type='get'><query xmlns='jabber:iq:version'/></iq>",
            "<presence xmlns='jabber:client' from='romeo@example.net/orchard'/>",
        ]
        let event = try PresenceService.next(on: channel, account: try account, deadline: .now + .seconds(1))
        guard case .presence = event else { return XCTFail("\(event)") }
        let refusal = try Iq(element: try XCTUnwrap(channel.sent.last))
        XCTAssertEqual(refusal.type, .error)
        XCTAssertEqual(refusal.error?.condition, .serviceUnavailable)
        XCTAssertEqual(refusal.to?.description, "mallory@evil.example/x")
    }

    /// A probe goes to the contact's bare JID and is not available presence.
    func testAProbeIsAddressedToTheBareJID() throws {
        let probe = PresenceService.probe(try JID("romeo@example.net/orchard")).element
        XCTAssertEqual(probe[attribute: "type"], "probe")
        XCTAssertEqual(probe[attribute: "to"], "romeo@example.net")
    }

    /// jabberd2 (measured: it drops client probes) is recognised by its software version; any
    /// other name, an error or no reply keeps the probes.
    func testServersThatDropClientProbesAreRecognisedByName() throws {
        func reply(_ xml: String) throws -> Iq { try Iq(element: try parseXMLDocument(xml)) }
        let jabberd2 = try reply("<iq xmlns='jabber:client' type='result' id='v'><query xmlns='jabber:iq:version'><name>jabberd2</name><version>2.7.0</version></query></iq>")
        let prosody = try reply("<iq xmlns='jabber:client' type='result' id='v'><query xmlns='jabber:iq:version'><name>Prosody</name></query></iq>")
        let refused = try reply("<iq xmlns='jabber:client' type='error' id='v'><query xmlns='jabber:iq:version'><name>jabberd2</name></query><error type='cancel'><service-unavailable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>")
        XCTAssertTrue(PresenceService.dropsClientProbes(versionReply: jabberd2))
        XCTAssertFalse(PresenceService.dropsClientProbes(versionReply: prosody))
        XCTAssertFalse(PresenceService.dropsClientProbes(versionReply: refused))
        XCTAssertFalse(PresenceService.dropsClientProbes(versionReply: nil))
    }
}
