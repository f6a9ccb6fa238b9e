import XCTest
import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// XEP-0153 §3.2: what our own available presence advertises.
final class PresencePhotoTests: XCTestCase {
    func testTheHashOfTheVCardPhotoAnEmptyPhotoOrNotReady() throws {
        // "abc" in Base64; SHA-1("abc") = a9993e36…
        let withPhoto = try FakeChannel(replies: [
            "<iq xmlns='jabber:client' id='{id}' type='result'><vCard xmlns='vcard-temp'><PHOTO><TYPE>image/png</TYPE><BINVAL>YW Jj</BINVAL></PHOTO></vCard></iq>",
        ])
        XCTAssertEqual(PresenceService.ownPhotoUpdate(on: withPhoto), .image(hash: "a9993e364706816aba3e25717850c26c9cd0d89d"))
        let without = try FakeChannel(replies: ["<iq xmlns='jabber:client' id='{id}' type='result'><vCard xmlns='vcard-temp'><FN>x</FN></vCard></iq>"])
        XCTAssertEqual(PresenceService.ownPhotoUpdate(on: without), .noImage)
        let refused = try FakeChannel(replies: [
            "<iq xmlns='jabber:client' id='{id}' type='error'><error type='cancel'><not-allowed xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>",
        ])
        XCTAssertEqual(PresenceService.ownPhotoUpdate(on: refused), .notReady)
        let presence = PresenceService.available(priority: -1, photo: .noImage).element.serialized()
        XCTAssertTrue(presence.contains("vcard-temp:x:update") && presence.contains("<photo/>"), presence)
    }
}
