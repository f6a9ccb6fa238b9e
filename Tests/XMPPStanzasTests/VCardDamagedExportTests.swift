import Foundation
import ExportShapes
import XCTest
import XMLTree
@testable import XMPPStanzas

/// Issue 39: address-book exports as phones and desktop programs write them. A value that cannot
/// be used costs its property, named by line, not the card; control characters never reach the
/// card. The cards are written here in the exporters' shapes, not copied from their files.
final class VCardDamagedExportTests: XCTestCase {
    /// Bytes standing in for a photo (the reader never decodes them; the import's check does).
    static let photoBytes: [UInt8] = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }

    /// A BlackBerry-style 2.1 export (`VCardExportShapes`), `base64` as its photo.
    static func blackBerry(photo base64: String) -> String { VCardExportShapes.blackBerry(photo: base64) }

    /// The photo's Base64 with its last group cut short: the padding and the character before it gone.
    static var cutBase64: String {
        var b64 = Data(photoBytes).base64EncodedString()  // 200 bytes: 268 characters, the last group "xxx="
        while b64.hasSuffix("=") { b64.removeLast() }
        b64.removeLast()
        return b64
    }

    /// An Outlook-2003-style 2.1 export: a form feed (=0C) inside a quoted-printable FBURL on line 10.
    static let outlook2003 = VCardExportShapes.outlook2003

    func testABlackBerryPhotoWithItsLastGroupCutShortCostsOnlyThePhoto() throws {
        let entry = try XCTUnwrap(try VCFReader.read(Self.blackBerry(photo: Self.cutBase64)).first)
        XCTAssertEqual(entry.card.fullName, "Jane Doe")
        XCTAssertEqual(entry.card.name.given, "Jane")
        XCTAssertEqual(entry.card.phones.map(\.number), ["+1 555 0100"])
        XCTAssertEqual(entry.card.addresses.first?.street, "1 Main St")
        XCTAssertEqual(entry.card.emails.map(\.address), ["jane@example.org"], "the lines after the photo are read too")
        XCTAssertNil(entry.card.photo)
        XCTAssertEqual(entry.dropped.map(\.field), ["PHOTO"])
        XCTAssertEqual(entry.warnings.count, 1, "\(entry.warnings)")
        XCTAssertTrue(entry.warnings.first?.hasPrefix("line 7: left out PHOTO '") == true, "\(entry.warnings)")
        XCTAssertTrue(entry.warnings.first?.hasSuffix("(its Base64 is cut short (266 characters, not a multiple of 4) and the image "
            + "does not decode whole from what is there)") == true, "\(entry.warnings)")
    }

    func testAFormFeedInAnOutlookFreeBusyURLIsDroppedWithANote() throws {
        let entry = try XCTUnwrap(try VCFReader.read(Self.outlook2003).first)
        let c = entry.card
        XCTAssertEqual(c.fullName, "John Smith")
        XCTAssertEqual(c.organization.name, "Example Inc.")
        XCTAssertEqual(c.phones.map(\.number), ["(555) 555-0100"])
        XCTAssertEqual(c.addresses.first?.street, "100 Main St\nSuite 5")
        XCTAssertEqual(c.addresses.first?.country, "United States of America")
        XCTAssertEqual(c.emails.map(\.address), ["john@example.org"])
        // FBURL has no vcard-temp field but is kept as an element of its own, without the form feed.
        XCTAssertEqual(c.extras.map(\.name), ["FBURL"])
        XCTAssertEqual(c.extras.first?.text, "http://example.org/freebusy/john.vfb")
        XCTAssertEqual(entry.warnings, [
            "line 10: dropped a control character (U+000C) from FBURL; the rest of it is kept",
            "line 12: left out REV '20061231T120000Z' (it names when the file was written, not the person)",
        ])
        XCTAssertEqual(entry.dropped.map(\.field), ["REV"])
        XCTAssertEqual(try VCFReader.read(VCFWriter.write(c)).map(\.card), [c], "what is kept writes back and reads the same")
    }

    /// A photo whose Base64 lost only its padding, or its last group, is used when the image
    /// decodes whole from what is there (the import asks PNGImage), completed to canonical
    /// Base64; otherwise it is left out. The note says which.
    func testACutShortPhotoIsKeptCompletedOnlyWhenTheImageDecodesWhole() throws {
        let full = Data(Self.photoBytes).base64EncodedString()
        var asked: [String] = []
        let entry = try XCTUnwrap(try VCFReader.read(Self.blackBerry(photo: String(full.dropLast()))) {
            asked.append($0)
            return true
        }.first)
        XCTAssertEqual(asked, [full], "the check gets the padding back")
        XCTAssertEqual(entry.card.photo, VCard.Photo(base64: full))
        XCTAssertEqual(entry.dropped, [])
        XCTAssertEqual(entry.warnings, ["line 7: PHOTO's Base64 is cut short (267 characters, not a multiple of 4), but the image "
            + "decodes whole from what is there, so it is kept, its Base64 completed"])

        // The last group cut to 2 characters holds 1 byte: the bytes before the lost one, canonical.
        let kept = try XCTUnwrap(try VCFReader.read(Self.blackBerry(photo: Self.cutBase64)) { _ in true }.first)
        XCTAssertEqual(kept.card.photo?.base64, Data(Self.photoBytes.dropLast()).base64EncodedString())
        let refused = try XCTUnwrap(try VCFReader.read(Self.blackBerry(photo: Self.cutBase64)) { _ in false }.first)
        XCTAssertNil(refused.card.photo)
        XCTAssertEqual(refused.dropped.map(\.field), ["PHOTO"])
        XCTAssertEqual(refused.card.emails.map(\.address), ["jane@example.org"])

        // A lone last character holds no whole byte: dropped; unused bits of the last one are cleared.
        XCTAssertEqual(VCFReader.cutShortBase64("QUJDRA"), "QUJDRA==")
        XCTAssertEqual(VCFReader.cutShortBase64("QUJDRB"), "QUJDRA==")
        XCTAssertEqual(VCFReader.cutShortBase64("QUJDREU"), "QUJDREU=")
        XCTAssertEqual(VCFReader.cutShortBase64("QUJDREX"), "QUJDREU=")
        XCTAssertEqual(VCFReader.cutShortBase64("QUJDR"), "QUJD")
        XCTAssertEqual(VCFReader.cutShortBase64("QUJD="), "QUJD")
        XCTAssertNil(VCFReader.cutShortBase64("QU*DR"))
        XCTAssertNil(VCFReader.cutShortBase64("QU=DR"))
        XCTAssertNil(VCFReader.cutShortBase64("Q"))

        // A 4.0 data: URI the same way, and a LOGO; a cut SOUND is never guessed at.
        let v4 = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Four\r\nPHOTO:data:image/jpeg;base64,\(Self.cutBase64)\r\n"
            + "LOGO;ENCODING=b:\(Self.cutBase64)\r\nEND:VCARD\r\n"
        let four = try XCTUnwrap(try VCFReader.read(v4).first)
        XCTAssertNil(four.card.photo)
        XCTAssertEqual(four.dropped.map(\.field), ["PHOTO"])
        XCTAssertEqual(four.keptInVCard4Only.map(\.field), ["LOGO"])
        XCTAssertFalse(try XCTUnwrap(four.xcard).elements.contains { $0.name == "photo" }, "the vCard4 node does not get the damaged photo either")
        let fourKept = try XCTUnwrap(try VCFReader.read(v4) { _ in true }.first)
        XCTAssertEqual(fourKept.card.photo?.type, "image/jpeg")
        XCTAssertEqual(fourKept.card.extras.map(\.name), ["LOGO"])
        XCTAssertEqual(fourKept.warnings.count, 2, "\(fourKept.warnings)")
        let sound = try XCTUnwrap(try VCFReader.read("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:S\r\nSOUND;ENCODING=b:\(Self.cutBase64)\r\nEND:VCARD\r\n") { _ in
            XCTFail("a sound is no image")
            return true
        }.first)
        XCTAssertEqual(sound.dropped.map(\.field), ["SOUND"])
    }

    /// Every value the reader cannot use, each left out naming its line and why, the card kept.
    func testUnusableValuesAreLeftOutNamingTheirLineAndWhy() throws {
        let cases: [(String, String)] = [
            ("PHOTO;ENCODING=b:not*base64", "left out PHOTO 'not*base64' (not valid Base64)"),
            ("PHOTO:data:image/png;base64", "left out PHOTO 'data:image/png;base64' (a data: URI without a comma)"),
            ("PHOTO:data:image/png,abc", "left out PHOTO 'data:image/png,abc' (a data: URI that is not Base64)"),
            ("EMAIL;TYPE=\"work:a@b", "left out EMAIL ';TYPE=\"work:a@b' (an unterminated quoted parameter value)"),
            ("TEL;X_Y=1:123", "left out TEL ';X_Y=1:123' (invalid parameter name 'X_Y')"),
            ("NOTE;ENCODING=QUOTED-PRINTABLE:a=2", "left out NOTE 'a=2' (broken quoted-printable: an '=' not followed by two hex digits)"),
            ("NOTE;QUOTED-PRINTABLE;CHARSET=KOI8-R:=C1", "left out NOTE '=C1' (CHARSET=KOI8-R is not read (UTF-8, ISO-8859-1 and Windows-1252 are))"),
            ("NOTE;QUOTED-PRINTABLE;CHARSET=UTF-8:=C3=28", "left out NOTE '=C3=28' (its quoted-printable text is not valid UTF-8)"),
            ("NOTE;QUOTED-PRINTABLE:=0C=07", "left out NOTE '' (nothing but 2 control characters (U+000C, U+0007))"),
            ("BDAY:1980-02-30", "left out BDAY '1980-02-30' (no calendar date)"),
            ("KEY;ENCODING=b:abc", "left out KEY 'abc' (not valid Base64)"),
            ("AGENT:BEGIN:VCARD\\nFN:x", "left out AGENT 'BEGIN:VCARD\nFN:x' (its embedded vCard cannot be read: its line 1: "
                + "the vCard begun here has no END:VCARD)"),
        ]
        for (property, note) in cases {
            let entry = try XCTUnwrap(try VCFReader.read("BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Kept\r\n\(property)\r\nEND:VCARD\r\n").first, property)
            XCTAssertEqual(entry.card.fullName, "Kept", property)
            XCTAssertEqual(entry.warnings, ["line 4: " + note], property)
            XCTAssertEqual(entry.dropped.map(\.field), [String(property.prefix { $0 != ";" && $0 != ":" })], property)
            XCTAssertEqual(entry.card.extras, [], property)
            XCTAssertFalse(entry.identityLeftOut)
        }
    }

    /// The card's name is what an import must not lose: a file whose FN and N were all left out says so.
    func testACardWhoseNameWasLeftOutSaysSo() throws {
        let noName = try XCTUnwrap(try VCFReader.read("BEGIN:VCARD\r\nVERSION:2.1\r\nFN;QUOTED-PRINTABLE:J=C3=28\r\nTEL:1\r\nEND:VCARD\r\n").first)
        XCTAssertTrue(noName.identityLeftOut)
        XCTAssertEqual(noName.card.phones.map(\.number), ["1"])
        let withN = try XCTUnwrap(try VCFReader.read("BEGIN:VCARD\r\nVERSION:2.1\r\nFN;QUOTED-PRINTABLE:J=C3=28\r\nN:Doe;J\r\nEND:VCARD\r\n").first)
        XCTAssertFalse(withN.identityLeftOut)
        let never = try XCTUnwrap(try VCFReader.read("BEGIN:VCARD\r\nVERSION:3.0\r\nTEL:1\r\nEND:VCARD\r\n").first)
        XCTAssertFalse(never.identityLeftOut, "a file that never named the person loses nothing")
    }

    /// Raw control characters: taken out of the property (a 4.0 card's xCard too), refused in
    /// BEGIN, END and VERSION, ignored on a line of their own between cards.
    func testRawControlCharactersAreTakenOutWithANote() throws {
        let text = "\u{0C}\r\nBEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ann\u{1B}[31m Lee\r\nX-CUSTOM:a\u{00}b\r\n\u{0C}\r\n"
            + "PRODID:-//x\u{07}//EN\r\nNOTE:C1\u{9B}31m too\u{85}\r\nEND:VCARD\r\n\u{0C}\r\n"
        let entry = try XCTUnwrap(try VCFReader.read(text).first)
        XCTAssertEqual(entry.card.fullName, "Ann[31m Lee")
        XCTAssertEqual(entry.card.note, "C131m too")
        XCTAssertEqual(entry.warnings, [
            "line 4: dropped a control character (U+001B) from FN; the rest of it is kept",
            "line 5: dropped a control character (U+0000) from X-CUSTOM; the rest of it is kept",
            "line 6: dropped a line of nothing but a control character (U+000C)",
            "line 7: left out PRODID '-//x//EN' (it names the program that wrote the file, not the person)",
            "line 8: dropped 2 control characters (U+009B, U+0085) from NOTE; the rest of it is kept",
        ])
        let xcard = try XCTUnwrap(entry.xcard)
        let xml = xcard.serialized()
        XCTAssertFalse(xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }, xml)
        XCTAssertTrue(xml.contains("a" + "b"), xml)
    }

    /// Outlook labels its text ISO-8859-1 and writes Windows-1252's curly quotes and euro sign.
    func testLatin1LabelledQuotedPrintableIsReadAsWindows1252() throws {
        let text = "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Q\r\nNOTE;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:=93caf=E9=94 =80 5=81\r\nEND:VCARD\r\n"
        let entry = try XCTUnwrap(try VCFReader.read(text).first)
        XCTAssertEqual(entry.card.note, "\u{201C}café\u{201D} € 5", "0x81 is undefined in Windows-1252: a control, taken out")
        XCTAssertEqual(entry.warnings, ["line 4: dropped a control character (U+0081) from NOTE; the rest of it is kept"])
    }
}
