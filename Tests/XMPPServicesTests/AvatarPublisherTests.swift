import CryptoPrimitives
import XCTest
import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// AvatarPublisher, the one avatar-publish step, and the vCard half of AvatarService, against
/// XEP-0054's and XEP-0084's examples.
final class AvatarPublisherTests: XCTestCase {
    private let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
    private var id: String { AvatarService.hash(png) }
    private let ok = "<iq xmlns='jabber:client' type='result' id='{id}'/>"

    private func error(_ condition: String, type: String = "cancel") -> String {
        "<iq xmlns='jabber:client' type='error' id='{id}'><error type='\(type)'><\(condition) xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>"
    }

    /// XEP-0054 example 2 (abridged), with `photo` as its PHOTO.
    private func card(photo: String = "") -> String {
        """
        <iq xmlns='jabber:client' id='{id}' type='result'>
          <vCard xmlns='vcard-temp'>
            <FN>Peter Saint-Andre</FN><NICKNAME>stpeter</NICKNAME>\(photo)<TZ>-07:00</TZ>
          </vCard>
        </iq>
        """
    }

    private func photo(_ bytes: [UInt8], type: String = "image/png") -> String {
        "<PHOTO><TYPE>\(type)</TYPE><BINVAL>\(Base64.encode(bytes))</BINVAL></PHOTO>"
    }

    /// What each request was: vcard-get, vcard-set, publish:NODE, items:NODE or retract:NODE.
    private func kinds(_ channel: FakeChannel) -> [String] {
        channel.requests.map { request in
            if request.child("vCard", namespace: Namespace.vcardTemp) != nil { return "vcard-" + (request[attribute: "type"] ?? "") }
            guard let pubsub = request.child("pubsub", namespace: Namespace.pubsub) else { return "other" }
            for verb in ["publish", "items", "retract"] {
                if let e = pubsub.child(verb, namespace: Namespace.pubsub) { return verb + ":" + (e[attribute: "node"] ?? "") }
            }
            return "other"
        }
    }

    private func publishedCard(_ channel: FakeChannel) throws -> VCard {
        let set = try XCTUnwrap(channel.requests.first { $0[attribute: "type"] == "set" && $0.child("vCard", namespace: Namespace.vcardTemp) != nil })
        return try VCard(element: XCTUnwrap(set.child("vCard", namespace: Namespace.vcardTemp)))
    }

    /// DESIGN-NOTES "Avatars": the vCard PHOTO goes first, merged (every other field kept),
    /// then XEP-0084 data, then metadata.
    func testPublishWritesTheVCardFirstThenPEP() throws {
        let channel = try FakeChannel(replies: [card(), ok, ok, ok])
        let result = try AvatarPublisher.publish(png: png, width: 1, height: 1, accessModel: .presence, on: channel)
        XCTAssertEqual(result, AvatarPublication(hash: id, vCardRefusal: nil, pepRefusal: nil, accessModelOutcome: .accepted))
        XCTAssertEqual(kinds(channel), ["vcard-get", "vcard-set", "publish:" + Namespace.avatarData, "publish:" + Namespace.avatarMetadata])
        let published = try publishedCard(channel)
        XCTAssertEqual(published.photo, VCard.Photo(type: "image/png", base64: Base64.encode(png)))
        XCTAssertEqual(published.fullName, "Peter Saint-Andre")
        XCTAssertEqual(published.extras.map(\.name), ["TZ"], "fields the model does not know are kept")
        let options = channel.requests[2].serialized()
        XCTAssertTrue(options.contains("presence"), options)
    }

    /// The batch profile's edits travel in the same vCard set as the photo.
    func testOtherEditsShareTheOneVCardSet() throws {
        let channel = try FakeChannel(replies: [card(), ok, ok, ok])
        _ = try AvatarPublisher.publish(png: png, width: 1, height: 1, on: channel) { $0.nickname = "Pete" }
        XCTAssertEqual(kinds(channel).filter { $0 == "vcard-set" }.count, 1)
        let published = try publishedCard(channel)
        XCTAssertEqual(published.nickname, "Pete")
        XCTAssertNotNil(published.photo)
    }

    /// A card that already holds these bytes as image/png is not sent again (Base64 line breaks aside).
    func testTheSamePhotoIsNotSentAgain() throws {
        let wrapped = "<PHOTO><TYPE>image/png</TYPE><BINVAL>\n\(Base64.encode(png))\n</BINVAL></PHOTO>"
        let channel = try FakeChannel(replies: [card(photo: wrapped), ok, ok])
        let result = try AvatarPublisher.publish(png: png, width: 1, height: 1, on: channel)
        XCTAssertNil(result.vCardRefusal)
        XCTAssertEqual(kinds(channel), ["vcard-get", "publish:" + Namespace.avatarData, "publish:" + Namespace.avatarMetadata])
    }

    /// A server that keeps no vCards still gets the PEP avatar; the refusal is reported.
    func testAServerWithoutVCardsIsReportedAndPEPStillPublished() throws {
        let channel = try FakeChannel(replies: [error("feature-not-implemented"), error("service-unavailable"), ok, ok])
        let result = try AvatarPublisher.publish(png: png, width: 1, height: 1, on: channel)
        XCTAssertEqual(result.vCardRefusal?.condition, .serviceUnavailable)
        XCTAssertNil(result.pepRefusal)
        XCTAssertEqual(result.accessModelOutcome, .accepted)
        XCTAssertEqual(kinds(channel).count, 4)
    }

    /// A server without PEP is reported, not thrown, and no metadata is sent after the refused data.
    func testAServerWithoutPEPIsReported() throws {
        let channel = try FakeChannel(replies: [card(), ok, error("service-unavailable")])
        let result = try AvatarPublisher.publish(png: png, width: 1, height: 1, on: channel)
        XCTAssertNil(result.vCardRefusal)
        XCTAssertEqual(result.pepRefusal?.condition, .serviceUnavailable)
        XCTAssertNil(result.accessModelOutcome)
        XCTAssertEqual(kinds(channel), ["vcard-get", "vcard-set", "publish:" + Namespace.avatarData])
    }

    /// Any other refusal of the vCard set is an error, and PEP is not touched.
    func testAnotherVCardRefusalIsThrown() throws {
        let channel = try FakeChannel(replies: [card(), error("not-allowed")])
        XCTAssertThrowsError(try AvatarPublisher.publish(png: png, width: 1, height: 1, on: channel)) { error in
            guard case AvatarServiceError.connection(.stanzaError(let e)) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(e.condition, .notAllowed)
        }
        XCTAssertEqual(channel.requests.count, 2)
    }

    /// A reply that is not a vCard is the same error, said the same way, as VCardService's.
    func testAnInvalidCardIsAnInvalidPayload() throws {
        let notACard = "<iq xmlns='jabber:client' type='result' id='{id}'><query xmlns='jabber:iq:version'/></iq>"
        let channel = try FakeChannel(replies: [notACard])
        XCTAssertThrowsError(try AvatarPublisher.publish(png: png, width: 1, height: 1, on: channel)) { error in
            guard case AvatarServiceError.invalidPayload = error else { return XCTFail("\(error)") }
            let vCardError = VCardServiceError.invalidCard(.unexpectedElement(expected: "vCard", got: "query"))
            XCTAssertEqual("\(error)", vCardError.description)
        }
    }

    /// XEP-0084 §4.5: remove publishes empty metadata and retracts the data the metadata named,
    /// after clearing the vCard PHOTO; the previous id is the metadata's.
    func testRemoveClearsTheVCardThenPEP() throws {
        let metadata = """
            <iq xmlns='jabber:client' type='result' id='{id}'><pubsub xmlns='http://jabber.org/protocol/pubsub'>
              <items node='urn:xmpp:avatar:metadata'><item id='\(id)'><metadata xmlns='urn:xmpp:avatar:metadata'>
                <info bytes='\(png.count)' id='\(id)' height='1' type='image/png' width='1'/></metadata></item></items>
            </pubsub></iq>
            """
        let channel = try FakeChannel(replies: [metadata, card(photo: photo(png)), ok, ok, ok])
        let removal = try AvatarPublisher.remove(on: channel)
        XCTAssertEqual(removal, AvatarRemoval(previousHash: id, vCardRefusal: nil, pepRefusal: nil))
        XCTAssertEqual(kinds(channel), ["items:" + Namespace.avatarMetadata, "vcard-get", "vcard-set",
                                        "publish:" + Namespace.avatarMetadata, "retract:" + Namespace.avatarData])
        let published = try publishedCard(channel)
        XCTAssertNil(published.photo)
        XCTAssertEqual(published.nickname, "stpeter")
    }

    /// Without PEP metadata, the previous id is the vCard photo's SHA-1; a card without a photo is not sent.
    func testRemoveFallsBackToTheVCardPhotosHash() throws {
        let other: [UInt8] = [9, 8, 7]
        let channel = try FakeChannel(replies: [error("item-not-found"), card(photo: photo(other)), ok, ok])
        XCTAssertEqual(try AvatarPublisher.remove(on: channel).previousHash, AvatarService.hash(other))

        let bare = try FakeChannel(replies: [error("item-not-found"), card(), ok])
        XCTAssertNil(try AvatarPublisher.remove(on: bare).previousHash)
        XCTAssertEqual(kinds(bare), ["items:" + Namespace.avatarMetadata, "vcard-get", "publish:" + Namespace.avatarMetadata])
    }

    /// Another's vCard photo: decoded and hashed; no card, or one this account may not read, is no photo.
    func testVCardPhotoOfAnother() throws {
        let juliet = try JID("juliet@capulet.lit")
        let channel = try FakeChannel(replies: [card(photo: photo(png, type: "image/jpeg"))])
        let found = try XCTUnwrap(try AvatarService.vCardPhoto(on: channel, of: juliet))
        XCTAssertEqual(found, FetchedAvatar(bytes: png, hash: id, type: "image/jpeg", source: .vcard))
        XCTAssertEqual(channel.requests.first?[attribute: "to"], "juliet@capulet.lit")
        for condition in ["item-not-found", "service-unavailable", "forbidden", "not-authorized"] {
            XCTAssertNil(try AvatarService.vCardPhoto(on: try FakeChannel(replies: [error(condition)]), of: juliet), condition)
        }
        XCTAssertNil(try AvatarService.vCardPhoto(on: try FakeChannel(replies: [card()]), of: juliet))
        XCTAssertThrowsError(try AvatarService.vCardPhoto(on: try FakeChannel(replies: [card(photo: "<PHOTO><BINVAL>***</BINVAL></PHOTO>")]),
                                                          of: juliet)) { error in
            guard case AvatarServiceError.invalidBase64(.vcard) = error else { return XCTFail("\(error)") }
        }
    }
}
