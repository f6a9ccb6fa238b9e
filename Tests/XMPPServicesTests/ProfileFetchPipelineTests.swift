import XCTest
import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// Many profiles over one connection: one request per store per JID, in flight together.
final class ProfileFetchPipelineTests: XCTestCase {
    /// Answers in request order whatever order the server replies in; a JID with no store is
    /// not found; an absent PEP node is just absent.
    func testOrderStoresAndNotFound() throws {
        let jids = try ["a@example.com", "b@example.com"].map { try JID($0) }
        var pending: [XMLElement] = []
        let channel = try FakeChannel(answers: Array(repeating: { request in
            pending.append(request)
            guard pending.count == 6 else { return [] }
            return pending.reversed().map { r in
                let id = r[attribute: "id"] ?? "", to = r[attribute: "to"] ?? ""
                let isVCard = r.child("vCard", namespace: Namespace.vcardTemp) != nil
                let node = r.child("pubsub", namespace: Namespace.pubsub)?.child("items", namespace: Namespace.pubsub)?[attribute: "node"] ?? ""
                if to.hasPrefix("b@") {
                    return "<iq xmlns='jabber:client' id='\(id)' type='error'><error type='cancel'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>"
                }
                if isVCard { return "<iq xmlns='jabber:client' id='\(id)' type='result'><vCard xmlns='vcard-temp'><FN>A</FN></vCard></iq>" }
                if node == Namespace.nick {
                    return "<iq xmlns='jabber:client' id='\(id)' type='result'><pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='\(node)'><item id='current'><nick xmlns='http://jabber.org/protocol/nick'>Ay</nick></item></items></pubsub></iq>"
                }
                return "<iq xmlns='jabber:client' id='\(id)' type='error'><error type='auth'><forbidden xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>"
            }
        }, count: 6))
        var pipeline = ProfileFetchPipeline(connection: channel, jids: jids)
        let first = try XCTUnwrap(pipeline.next())
        XCTAssertEqual(first.jid, jids[0])
        let stored = try first.result.get()
        XCTAssertEqual(stored.vcardTemp?.fullName, "A")
        XCTAssertNil(stored.vcard4, "a node this account may not read is absent")
        XCTAssertEqual(stored.nick?.nickname, "Ay")
        let second = try XCTUnwrap(pipeline.next())
        guard case .failure(.notFound(let who)) = second.result else { return XCTFail("\(second.result)") }
        XCTAssertEqual(who, jids[1])
        XCTAssertNil(pipeline.next())
        XCTAssertEqual(channel.requests.count, 6, "three requests per JID, all sent before any reply")
    }
}
