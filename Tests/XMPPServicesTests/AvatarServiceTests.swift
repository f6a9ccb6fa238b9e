import CryptoPrimitives
import XCTest
import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// AvatarService and PubSubClient against XEP-0084's and XEP-0060's examples.
final class AvatarServiceTests: XCTestCase {
    private let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
    private var id: String { AvatarService.hash(png) }

    private func itemsReply(node: String, id: String, payload: String) -> String {
        """
        <iq xmlns='jabber:client' type='result' id='{id}'>
          <pubsub xmlns='http://jabber.org/protocol/pubsub'>
            <items node='\(node)'><item id='\(id)'>\(payload)</item></items>
          </pubsub>
        </iq>
        """
    }

    /// XEP-0084 example 3: the metadata item, read with its info.
    func testMetadataIsRead() throws {
        let channel = try FakeChannel(replies: [itemsReply(node: Namespace.avatarMetadata, id: id, payload: """
            <metadata xmlns='urn:xmpp:avatar:metadata'><info bytes='\(png.count)' id='\(id)' height='64' type='image/png' width='64'/></metadata>
            """)])
        let metadata = try XCTUnwrap(try AvatarService.metadata(on: channel, of: try JID("juliet@capulet.lit")))
        XCTAssertEqual(metadata.infos.first?.id, id)
        XCTAssertEqual(metadata.infos.first?.width, 64)
        XCTAssertEqual(channel.requests.first?[attribute: "to"], "juliet@capulet.lit")
    }

    /// XEP-0084 §4.1: data whose SHA-1 is not its id is refused, not shown.
    func testDataThatDoesNotHashToItsIdIsRefused() throws {
        let wrong = String(repeating: "0", count: 40)
        let channel = try FakeChannel(replies: [itemsReply(node: Namespace.avatarData, id: wrong,
                                                           payload: "<data xmlns='urn:xmpp:avatar:data'>\(Base64.encode(png))</data>")])
        XCTAssertThrowsError(try AvatarService.data(on: channel, of: nil, id: wrong)) { error in
            guard case AvatarServiceError.hashMismatch(expected: wrong, actual: self.id) = error else { return XCTFail("\(error)") }
        }
    }

    /// The right bytes are returned with their hash.
    func testDataIsDecodedAndChecked() throws {
        let channel = try FakeChannel(replies: [itemsReply(node: Namespace.avatarData, id: id,
                                                           payload: "<data xmlns='urn:xmpp:avatar:data'>\(Base64.encode(png))</data>")])
        let avatar = try XCTUnwrap(try AvatarService.data(on: channel, of: nil, id: id))
        XCTAssertEqual(avatar.bytes, png)
        XCTAssertEqual(avatar.source, .pep)
    }

    /// Items of another node than asked are a bad payload, named as avatar data.
    func testItemsOfAnotherNodeAreInvalid() throws {
        let channel = try FakeChannel(replies: [itemsReply(node: "urn:other", id: id, payload: "<x xmlns='urn:other'/>")])
        XCTAssertThrowsError(try AvatarService.data(on: channel, of: nil, id: id)) { error in
            guard case AvatarServiceError.invalidPayload = error else { return XCTFail("\(error)") }
        }
    }

    /// A node that is not there (item-not-found) is "no avatar", not an error.
    func testAnAbsentNodeIsNoAvatar() throws {
        for condition in ["item-not-found"] {
            let channel = try FakeChannel(replies: [
                "<iq xmlns='jabber:client' type='error' id='{id}'><error type='cancel'><\(condition) xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>",
            ])
            XCTAssertNil(try AvatarService.metadata(on: channel, of: try JID("romeo@montague.lit")), condition)
        }
    }

    /// XEP-0060 §6.5.9.x: an access model that excludes the requester is a refusal naming the
    /// contact, not "no avatar".
    func testARefusedReadIsNotAbsence() throws {
        for (condition, extra) in [("not-authorized", "<presence-subscription-required xmlns='http://jabber.org/protocol/pubsub#errors'/>"),
                                   ("not-allowed", "<closed-node xmlns='http://jabber.org/protocol/pubsub#errors'/>"),
                                   ("forbidden", "")] {
            let channel = try FakeChannel(replies: [
                "<iq xmlns='jabber:client' type='error' id='{id}'><error type='auth'><\(condition) xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>\(extra)</error></iq>",
            ])
            let romeo = try JID("romeo@montague.lit")
            XCTAssertThrowsError(try AvatarService.metadata(on: channel, of: romeo), condition) { error in
                guard case AvatarServiceError.readRefused(romeo, let e) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(e.condition.rawValue, condition)
                XCTAssertEqual((error as? AvatarServiceError)?.isAmbiguousRefusal, condition == "forbidden")
                XCTAssertTrue("\(error)".contains("romeo@montague.lit"), "\(error)")
            }
        }
    }

    /// A JPEG in the data node (another client's choice) is fetched with its type.
    func testAJPEGInTheDataNodeIsFetched() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
        let jpegID = AvatarService.hash(jpeg)
        let metadata = try AvatarMetadata(element: parseXMLDocument("""
            <metadata xmlns='urn:xmpp:avatar:metadata'><info bytes='7' id='\(jpegID)' type='image/jpeg'/></metadata>
            """))
        XCTAssertEqual(metadata.dataNodeInfo?.type, "image/jpeg")
        let channel = try FakeChannel(replies: [itemsReply(node: Namespace.avatarData, id: jpegID,
                                                           payload: "<data xmlns='urn:xmpp:avatar:data'>\(Base64.encode(jpeg))</data>")])
        let avatar = try XCTUnwrap(try AvatarService.data(on: channel, of: nil, id: jpegID, type: "image/jpeg"))
        XCTAssertEqual(avatar.bytes, jpeg)
        XCTAssertEqual(avatar.type, "image/jpeg")
    }

    /// XEP-0060 §7.1.5: publish-options refused with conflict/precondition-not-met → configure
    /// the node, then publish again with the options.
    func testAConflictingNodeIsReconfiguredThenPublished() throws {
        let precondition = """
            <iq xmlns='jabber:client' type='error' id='{id}'><error type='cancel'>
              <conflict xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>
              <precondition-not-met xmlns='http://jabber.org/protocol/pubsub#errors'/></error></iq>
            """
        let ok = "<iq xmlns='jabber:client' type='result' id='{id}'/>"
        let channel = try FakeChannel(replies: [precondition, ok, ok, ok])
        let outcome = try PubSubClient.publish(on: channel, node: Namespace.avatarData, item: PubSubItem(id: id),
                                               options: ["pubsub#access_model": "open"])
        XCTAssertEqual(outcome, .reconfigured)
        let kinds = channel.requests.map { request -> String in
            if request.child("pubsub", namespace: Namespace.pubsubOwner) != nil { return "configure" }
            let pubsub = request.child("pubsub", namespace: Namespace.pubsub)
            return pubsub?.child("publish-options") != nil ? "publish+options" : "publish"
        }
        XCTAssertEqual(kinds, ["publish+options", "configure", "publish+options"])
    }

    /// A service that does not know publish-options gets the item without them.
    func testAServiceWithoutPublishOptionsGetsThePlainPublish() throws {
        let refused = "<iq xmlns='jabber:client' type='error' id='{id}'><error type='cancel'><feature-not-implemented xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>"
        let channel = try FakeChannel(replies: [refused, "<iq xmlns='jabber:client' type='result' id='{id}'/>"])
        XCTAssertEqual(try PubSubClient.publish(on: channel, node: "n", item: PubSubItem(id: "1"), options: ["pubsub#access_model": "open"]), .ignored)
        XCTAssertEqual(channel.requests.count, 2)
    }

    /// A server without PEP (service-unavailable on publish) is told apart from other refusals.
    func testNoPEPServiceIsSaidAsSuch() throws {
        let refused = "<iq xmlns='jabber:client' type='error' id='{id}'><error type='cancel'><service-unavailable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>"
        let channel = try FakeChannel(replies: [refused])
        XCTAssertThrowsError(try AvatarService.publish(on: channel, png: png, hash: id, width: 1, height: 1, accessModel: "open")) { error in
            guard case AvatarServiceError.pepUnavailable = error else { return XCTFail("\(error)") }
        }
    }

    /// Retracting ids that are already gone is not an error (XEP-0060 §7.2.3.5).
    func testRetractingAGoneItemIsFine() throws {
        let gone = "<iq xmlns='jabber:client' type='error' id='{id}'><error type='cancel'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>"
        let channel = try FakeChannel(replies: [gone])
        try PubSubClient.retract(on: channel, node: Namespace.avatarData, ids: ["old"])
    }
}
