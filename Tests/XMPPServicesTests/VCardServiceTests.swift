import XCTest
import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// VCardService against XEP-0054's examples.
final class VCardServiceTests: XCTestCase {
    /// XEP-0054 §3.1 example 2 (abridged): the card of one's own account.
    func testFetchReadsTheCard() throws {
        let channel = try FakeChannel(replies: ["""
            <iq xmlns='jabber:client' id='{id}' to='stpeter@jabber.org/roundabout' type='result'>
              <vCard xmlns='vcard-temp'>
                <FN>Peter Saint-Andre</FN>
                <N><FAMILY>Saint-Andre</FAMILY><GIVEN>Peter</GIVEN><MIDDLE/></N>
                <NICKNAME>stpeter</NICKNAME>
                <URL>http://www.xmpp.org/xsf/people/stpeter.shtml</URL>
              </vCard>
            </iq>
            """])
        let card = try VCardService.fetch(on: channel, jid: nil)
        XCTAssertEqual(card.fullName, "Peter Saint-Andre")
        XCTAssertEqual(card.nickname, "stpeter")
        XCTAssertNil(channel.requests.first?[attribute: "to"], "one's own card is asked of the bare account, without to")
    }

    /// XEP-0054 §3.2: another user with no card, as item-not-found or as an empty vCard.
    func testAnotherUsersMissingCardIsNotFoundEitherWay() throws {
        let jid = try JID("juliet@example.com")
        for reply in [
            "<iq xmlns='jabber:client' id='{id}' type='error'><vCard xmlns='vcard-temp'/><error type='cancel'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>",
            "<iq xmlns='jabber:client' id='{id}' type='result'><vCard xmlns='vcard-temp'/></iq>",
            "<iq xmlns='jabber:client' id='{id}' type='error'><error type='cancel'><service-unavailable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>",
        ] {
            let channel = try FakeChannel(replies: [reply])
            XCTAssertThrowsError(try VCardService.fetch(on: channel, jid: jid)) { error in
                guard case VCardServiceError.notFound(let who) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(who, jid)
            }
            XCTAssertEqual(channel.requests.first?[attribute: "to"], "juliet@example.com")
        }
    }

    /// One's own missing card is an empty card to fill, not an error.
    func testOnesOwnMissingCardIsEmpty() throws {
        let channel = try FakeChannel(replies: [
            "<iq xmlns='jabber:client' id='{id}' type='error'><error type='cancel'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>",
        ])
        XCTAssertTrue(try VCardService.fetch(on: channel, jid: nil).isEmpty)
    }

    /// Other conditions are the server's refusal, passed on as such.
    func testAForbiddenReplyIsNotNotFound() throws {
        let channel = try FakeChannel(replies: [
            "<iq xmlns='jabber:client' id='{id}' type='error'><error type='auth'><forbidden xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>",
        ])
        XCTAssertThrowsError(try VCardService.fetch(on: channel, jid: try JID("a@example.com"))) { error in
            guard case VCardServiceError.connection(.stanzaError(let e)) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(e.condition, .forbidden)
        }
    }

    /// A publish is one set carrying the whole card.
    func testPublishSendsTheWholeCard() throws {
        let channel = try FakeChannel(replies: ["<iq xmlns='jabber:client' id='{id}' type='result'/>"])
        var card = VCard()
        card.nickname = "Ally"
        try VCardService.publish(card, on: channel)
        XCTAssertEqual(channel.requests.first?[attribute: "type"], "set")
        XCTAssertEqual(channel.requests.first?.child("vCard", namespace: Namespace.vcardTemp)?.child("NICKNAME")?.text, "Ally")
    }
}
