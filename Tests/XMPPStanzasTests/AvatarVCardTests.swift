import XCTest
import XMLTree
import XMPPStanzas

/// XEP-0153: the vcard-temp:x:update presence payload and the vCard PHOTO merged into a raw card.
final class AvatarVCardTests: XCTestCase {
    /// XEP-0153 §3.1 example: the vCard a client publishes.
    static let juliet = """
        <vCard xmlns='vcard-temp'>
          <BDAY>1476-06-09</BDAY>
          <ADR>
            <CTRY>Italy</CTRY>
            <LOCALITY>Verona</LOCALITY>
            <HOME/>
          </ADR>
          <NICKNAME/>
          <N><GIVEN>Juliet</GIVEN><FAMILY>Capulet</FAMILY></N>
          <EMAIL>jcapulet@shakespeare.lit</EMAIL>
          <PHOTO>
            <TYPE>image/jpeg</TYPE>
            <BINVAL>
              Base64-encoded-avatar-file-here!
            </BINVAL>
          </PHOTO>
        </vCard>
        """

    func testPhotoIsReadFromTheExampleCard() throws {
        let photo = try XCTUnwrap(try VCardPhoto.find(in: parseXMLDocument(Self.juliet)))
        XCTAssertEqual(photo.type, "image/jpeg")
        XCTAssertEqual(photo.compactBase64, "Base64-encoded-avatar-file-here!")
        XCTAssertNil(photo.externalURL)
        XCTAssertEqual(try VCardPhoto(element: photo.element), photo)
    }

    func testReplacingThePhotoKeepsEveryOtherChildInPlace() throws {
        let card = try parseXMLDocument(Self.juliet)
        let merged = try VCardPhoto.replacing(in: card, with: VCardPhoto(type: "image/png", base64: "iVBORw0KGgo="))
        let others = { (e: XMLElement) in e.elements.filter { $0.name != "PHOTO" } }
        XCTAssertEqual(others(merged), others(card))
        XCTAssertEqual(merged.elements.map(\.name), ["BDAY", "ADR", "NICKNAME", "N", "EMAIL", "PHOTO"])
        XCTAssertEqual(try VCardPhoto.find(in: merged), VCardPhoto(type: "image/png", base64: "iVBORw0KGgo="))
        // Serialised and read back, the card is the same value (the writer keeps the namespaces).
        XCTAssertEqual(try parseXMLDocument(merged.serialized()), merged)
    }

    func testAddingAPhotoAppendsItAndUnknownFieldsSurvive() throws {
        let card = try parseXMLDocument("""
            <vCard xmlns='vcard-temp'><FN>Bob</FN><X-CUSTOM xmlns='urn:example'>keep me</X-CUSTOM><ORG><ORGUNIT>R&amp;D</ORGUNIT></ORG></vCard>
            """)
        let merged = try VCardPhoto.replacing(in: card, with: VCardPhoto(type: "image/png", base64: "AAAA"))
        XCTAssertEqual(Array(merged.children.dropLast()), card.children)
        XCTAssertEqual(merged.elements.last?.name, "PHOTO")
    }

    func testRemovingThePhotoDropsEveryPhotoAndNothingElse() throws {
        var card = try parseXMLDocument(Self.juliet)
        card.append(VCardPhoto(type: "image/png", base64: "AAAA").element)
        let cleared = try VCardPhoto.replacing(in: card, with: nil)
        XCTAssertNil(try VCardPhoto.find(in: cleared))
        XCTAssertEqual(cleared.elements.map(\.name), ["BDAY", "ADR", "NICKNAME", "N", "EMAIL"])
        // No two text nodes side by side where a PHOTO was cut out.
        for (a, b) in zip(cleared.children, cleared.children.dropFirst()) {
            XCTAssertFalse(a.textValue != nil && b.textValue != nil)
        }
        XCTAssertThrowsError(try VCardPhoto.replacing(in: XMLElement("vCard", namespace: "urn:other"), with: nil))
    }

    func testEmptyBinvalIsNoImage() throws {
        let photo = try VCardPhoto.find(in: parseXMLDocument("<vCard xmlns='vcard-temp'><PHOTO><TYPE>image/png</TYPE><BINVAL>\n</BINVAL></PHOTO></vCard>"))
        XCTAssertNil(photo?.compactBase64)
        XCTAssertNil(try VCardPhoto.find(in: parseXMLDocument("<vCard xmlns='vcard-temp'/>")))
    }

    /// XEP-0153 §3.1 example: the hash in presence.
    func testUpdateWithHash() throws {
        let presence = try parseXMLDocument("""
            <presence from='juliet@capulet.com/balcony' xmlns='jabber:client'>
              <x xmlns='vcard-temp:x:update'>
                <photo>01b87fcd030b72895ff8e88db57ec525450f000d</photo>
              </x>
            </presence>
            """)
        let update = try XCTUnwrap(try VCardUpdate(presence: presence))
        XCTAssertEqual(update, .image(hash: "01b87fcd030b72895ff8e88db57ec525450f000d"))
        XCTAssertEqual(try VCardUpdate(element: update.element), update)
        XCTAssertEqual(update.element.serialized(),
                       "<x xmlns='vcard-temp:x:update'><photo>01b87fcd030b72895ff8e88db57ec525450f000d</photo></x>")
    }

    /// XEP-0153 §4.1 examples: not ready (no photo child) and no image (empty photo).
    func testUpdateNotReadyAndNoImage() throws {
        let notReady = try VCardUpdate(element: parseXMLDocument("<x xmlns='vcard-temp:x:update'/>"))
        XCTAssertEqual(notReady, .notReady)
        XCTAssertEqual(try VCardUpdate(element: notReady.element), .notReady)
        let none = try VCardUpdate(element: parseXMLDocument("<x xmlns='vcard-temp:x:update'>\n  <photo/>\n</x>"))
        XCTAssertEqual(none, .noImage)
        XCTAssertEqual(none.element.serialized(), "<x xmlns='vcard-temp:x:update'><photo/></x>")
        XCTAssertNil(try VCardUpdate(presence: parseXMLDocument("<presence xmlns='jabber:client'/>")))
    }

    func testUpdateRefusesWhatIsNotAHash() {
        XCTAssertThrowsError(try VCardUpdate(element: parseXMLDocument("<x xmlns='vcard-temp:x:update'><photo>sha1-hash-of-image</photo></x>")))
        XCTAssertThrowsError(try VCardUpdate(element: parseXMLDocument("<x xmlns='jabber:x:data'/>")))
        XCTAssertEqual(try VCardUpdate(element: parseXMLDocument(
            "<x xmlns='vcard-temp:x:update'><photo>01B87FCD030B72895FF8E88DB57EC525450F000D</photo></x>")),
                       .image(hash: "01b87fcd030b72895ff8e88db57ec525450f000d"))
    }
}
