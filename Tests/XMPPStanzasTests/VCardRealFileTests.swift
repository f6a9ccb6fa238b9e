import Foundation
import XCTest
import XMLTree
@testable import XMPPStanzas

/// Cards that address books and other vCard libraries wrote, vendored under `Data/vcards`
/// (origin and licence in `Data/README.md`), each read with the fields it must give.
final class VCardRealFileTests: XCTestCase {
    static func entries(_ name: String) throws -> [VCFReader.Entry] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data/vcards/" + name)
        return try VCFReader.read(Array(try Data(contentsOf: url)))
    }

    static func extra(_ card: VCard, _ name: String) -> String? {
        card.extras.first { $0.name == name }.map { VCard.summary(of: $0) }
    }

    /// A vCard 2.1 phone export: bare TEL type, `ENCODING=BASE64;JPEG` photo folded over 80 lines
    /// and followed by a blank line.
    func testPhoneExport21WithABase64Photo() throws {
        let entries = try Self.entries("vobject-photo-test.vcf")
        XCTAssertEqual(entries.count, 1)
        let card = entries[0].card
        XCTAssertEqual(entries[0].warnings, [])
        XCTAssertEqual(card.fullName, "should be ok to share")
        XCTAssertEqual(card.name.given, "my former school")
        XCTAssertEqual(card.phones, [VCard.Phone(number: "+49123456789", types: ["home"])])
        XCTAssertEqual(card.photo?.type, "image/jpeg")
        let bytes = try XCTUnwrap(card.photo?.compactBase64.flatMap { Data(base64Encoded: $0) })
        XCTAssertEqual(bytes.count, 4398)
        XCTAssertEqual(Array(bytes.prefix(3)), [0xFF, 0xD8, 0xFF], "a JPEG from its first byte")
        XCTAssertEqual(Array(bytes.suffix(2)), [0xFF, 0xD9], "to its last")
        try assertRoundTrip(card)
    }

    /// Apple's Address Book (3.0): `item` groups with X-AB labels, repeated `type=` parameters,
    /// escaped quotes and colons, a photo folded with two spaces.
    func testAppleAddressBookExport() throws {
        let entry = try XCTUnwrap(try Self.entries("ezvcard-John_Doe_MAC_ADDRESS_BOOK.vcf").first)
        let card = entry.card
        XCTAssertEqual(entry.warnings, [])
        XCTAssertEqual(card.fullName, "Mr. John Richter,James Doe Sr.")
        XCTAssertEqual(card.name, VCard.Name(family: "Doe", given: "John", middle: "Richter,James", prefix: "Mr.", suffix: "Sr."))
        XCTAssertEqual(card.organization, VCard.Organization(name: "IBM", units: ["Accounting"]))
        XCTAssertEqual(card.emails, [VCard.Email(address: "john.doe@ibm.com", types: ["internet", "work", "pref"])])
        XCTAssertEqual(card.phones.map(\.number), ["905-777-1234", "905-666-1234", "905-555-1234", "905-888-1234",
                                                    "905-999-1234", "905-111-1234", "905-222-1234"])
        XCTAssertEqual(card.phones[3].types, ["home", "fax"])
        XCTAssertEqual(card.addresses.map(\.street), ["Silicon Alley 5,", "Street4\nBuilding 6\nFloor 8"])
        XCTAssertEqual(card.addresses[0].types, ["home", "pref"])
        XCTAssertEqual(card.url, "http://www.ibm.com")
        XCTAssertEqual(card.birthday, "2012-06-06")
        XCTAssertTrue(card.note?.hasPrefix("THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS \"AS IS\" AND") == true)
        XCTAssertTrue(card.note?.hasSuffix("DAMAGE.\nFavotire Color: Blue") == true)
        XCTAssertEqual(card.photo?.compactBase64.flatMap { Data(base64Encoded: $0) }?.count, 4398)
        XCTAssertEqual(Self.extra(card, "X-PHONETIC-FIRST-NAME"), "Jon")
        XCTAssertEqual(Self.extra(card, "X-ABUID"), "6B29A774-D124-4822-B8D0-2780EC117F60:ABPerson")
        XCTAssertEqual(card.extras.filter { $0.name == "X-ABLABEL" }.map(\.text), ["AssistantPhone", "_$!<HomePage>!$_", "Spouse"])
        try assertRoundTrip(card)
    }

    /// vobject's vCard 4.0 card with most properties: GEO as a geo: URI, LOGO, SOUND and KEY as
    /// links, a second FN in another language, REV left out with a note.
    func testVCard40WithMostProperties() throws {
        let entry = try XCTUnwrap(try Self.entries("vobject-vcard40_full.vcf").first)
        let card = entry.card
        XCTAssertEqual(card.fullName, "Dr. John Q. Public, III")
        XCTAssertEqual(card.nickname, "Johnny,JQP")
        XCTAssertEqual(card.birthday, "1985-04-15")
        XCTAssertEqual(card.photo, VCard.Photo(externalURL: "http://www.example.com/pub/photos/jqpublic.gif"))
        XCTAssertEqual(card.addresses.map(\.locality), ["Any Town", "Somewhere"])
        XCTAssertEqual(card.addresses[1].types, ["home", "pref"])
        XCTAssertEqual(card.phones, [VCard.Phone(number: "+1-555-555-5555", types: ["voice", "pref"]),
                                     VCard.Phone(number: "+1-555-123-4567", types: ["cell"])])
        XCTAssertEqual(card.jabberID, "john@jabber.example.com")
        XCTAssertEqual(card.organization, VCard.Organization(name: "Example Corp.", units: ["North Division", "Marketing"]))
        XCTAssertEqual(card.note, "This is a note about John.\nHe likes vCards.")
        XCTAssertEqual(Self.extra(card, "GEO"), "LAT=37.386013; LON=-122.082932")
        XCTAssertEqual(Self.extra(card, "LOGO"), "EXTVAL=http://www.example.com/pub/logos/company.png")
        XCTAssertEqual(Self.extra(card, "SOUND"), "EXTVAL=http://www.example.com/pub/sounds/jqpublic.ogg")
        XCTAssertEqual(Self.extra(card, "KEY"), "CRED=http://www.example.com/keys/jqpublic.pgp")
        XCTAssertEqual(Self.extra(card, "FN"), "John Q. Public", "a second FN without ALTID is a second name")
        XCTAssertEqual(Self.extra(card, "IMPP"), "sip:john@voip.example.com")
        XCTAssertEqual(entry.dropped, [VCardLoss(field: "REV", value: "20231215T120000Z")])
        try assertRoundTrip(card)
    }

    /// RFC 6350 §5.4 ALTIDs: one name in English and Japanese; vcard-temp holds the first.
    func testAlternativeNamesKeepTheFirstAndSayWhatWasLeft() throws {
        let entry = try XCTUnwrap(try Self.entries("vobject-vcard40_multilang.vcf").first)
        XCTAssertEqual(entry.card.fullName, "Yamada Taro")
        XCTAssertEqual(entry.card.name, VCard.Name(family: "Yamada", given: "Taro"))
        XCTAssertEqual(entry.keptInVCard4Only, [VCardLoss(field: "FN", value: "山田太郎"), VCardLoss(field: "N", value: "山田;太郎;;;")],
                       "a 4.0 file: the vCard4 node keeps the other forms")
        XCTAssertEqual(entry.dropped, [])
        XCTAssertEqual(entry.warnings.count, 2)
        XCTAssertEqual(Self.extra(entry.card, "UID"), "urn:uuid:multilang-vcard-example")
    }

    /// Written as 3.0 and read again, and published as XML and read again, the card is the same.
    private func assertRoundTrip(_ card: VCard, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try VCFReader.read(VCFWriter.write(card)).map(\.card), [card], file: file, line: line)
        XCTAssertEqual(try VCard(xml: card.xml), card, file: file, line: line)
        XCTAssertEqual(VCFWriter.losses(card), [], file: file, line: line)
    }
}
