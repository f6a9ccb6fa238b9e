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
        guard case .failure(.notFound(let who, let refused)) = second.result else { return XCTFail("\(second.result)") }
        XCTAssertEqual(who, jids[1])
        XCTAssertEqual(refused, [], "absent stores, none refused")
        XCTAssertNil(pipeline.next())
        XCTAssertEqual(channel.requests.count, 6, "three requests per JID, all sent before any reply")
    }

    /// A JID whose PEP nodes refuse this account and whose vcard-temp is empty is not found,
    /// and the answer says that its nodes refused rather than that there may be no account.
    func testRefusedNodesAreNamed() throws {
        let jid = try JID("c@example.com")
        let channel = try FakeChannel(answers: Array(repeating: { request in
            let id = request[attribute: "id"] ?? ""
            if request.child("vCard", namespace: Namespace.vcardTemp) != nil {
                return ["<iq xmlns='jabber:client' id='\(id)' type='result'><vCard xmlns='vcard-temp'/></iq>"]
            }
            return ["<iq xmlns='jabber:client' id='\(id)' type='error'><error type='auth'><forbidden xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>"]
        }, count: 3))
        var pipeline = ProfileFetchPipeline(connection: channel, jids: [jid])
        let answer = try XCTUnwrap(pipeline.next())
        guard case .failure(let error) = answer.result, case .notFound(_, let refused) = error else { return XCTFail("\(answer.result)") }
        XCTAssertEqual(refused, [.vcard4, .nick])
        XCTAssertEqual(error.description, "c@example.com has no vCard this account may read: its vcard4 and nick nodes refused to be read "
                       + "(shared with others only, such as its contacts)")
        XCTAssertFalse(error.description.contains("no such account"))
    }
}
