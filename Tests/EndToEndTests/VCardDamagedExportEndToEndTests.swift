import Foundation
import ExportShapes
import XCTest

/// Issue 39: `xmpp-vcard import` of address-book exports as a BlackBerry and Outlook 2003 write
/// them (the shapes made here): a damaged photo or a form feed costs that property, named on
/// stderr, and the person's name, phones and addresses reach the server.
final class VCardDamagedExportEndToEndTests: XCTestCase {
    private func blackBerry(photo base64: String) -> String { VCardExportShapes.blackBerry(photo: base64) }

    private func assertJane(_ doc: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(doc["fullname"] as? String, "Jane Doe", file: file, line: line)
        XCTAssertEqual(doc["given"] as? String, "Jane", file: file, line: line)
        XCTAssertEqual((doc["phones"] as? [[String: Any]])?.map { $0["number"] as? String }, ["+1 555 0100"], file: file, line: line)
        XCTAssertEqual((doc["addresses"] as? [[String: Any]])?.first?["street"] as? String, "1 Main St", file: file, line: line)
        XCTAssertEqual((doc["emails"] as? [[String: Any]])?.map { $0["address"] as? String }, ["jane@example.org"], file: file, line: line)
    }

    func testABlackBerryPhotoCutShortIsKeptWhenWholeAndOtherwiseCostsOnlyThePhoto() throws {
        let (t, _) = try VCardEndToEndTests.account("bb")
        // A PNG whose Base64 ends in padding, so that losing it leaves the image whole.
        let png = try XCTUnwrap((8...12).lazy.map { TestPNG.rgb(width: $0, height: 8, seed: 3) }.first { $0.count % 3 != 0 })
        let base64 = png.base64EncodedString()

        // The padding lost: the image decodes whole from what is there, so it is the photo.
        let whole = try t.run("xmpp-vcard", ["import", "-"], stdin: blackBerry(photo: String(base64.prefix { $0 != "=" })))
        XCTAssertEqual(whole.status, 0, whole.stderr)
        XCTAssertTrue(whole.stderr.contains("standard input: line 7: PHOTO's Base64 is cut short ("), whole.stderr)
        XCTAssertTrue(whole.stderr.contains("but the image decodes whole from what is there, so it is kept"), whole.stderr)
        var doc = try VCardEndToEndTests.object(try t.run("xmpp-vcard", ["get", "--json"]))
        assertJane(doc)
        XCTAssertEqual((doc["photo"] as? [String: Any])?["sha1"] as? String, try sha1Hex(png))

        // The last group cut too (IEND's checksum gone): the photo is left out, the rest imported,
        // and the account's photo stays as it was.
        let cut = String(base64.prefix { $0 != "=" }.dropLast(5))
        let damaged = try t.run("xmpp-vcard", ["import", "-", "--json"], stdin: blackBerry(photo: cut).replacingOccurrences(of: "Jane", with: "Janet"))
        XCTAssertEqual(damaged.status, 0, damaged.stderr)
        XCTAssertTrue(damaged.stderr.contains("standard input: line 7: left out PHOTO '"), damaged.stderr)
        XCTAssertTrue(damaged.stderr.contains("and the image does not decode whole from what is there)"), damaged.stderr)
        let report = try VCardEndToEndTests.object(damaged)
        XCTAssertEqual(report["status"] as? String, "imported")
        let dropped = (report["dropped"] as? [[String: Any]])?.filter { $0["field"] as? String == "PHOTO" }
        XCTAssertEqual(dropped?.map { $0["by"] as? String }, ["input"], damaged.stdout)
        doc = try VCardEndToEndTests.object(try t.run("xmpp-vcard", ["get", "--json"]))
        XCTAssertEqual(doc["fullname"] as? String, "Janet Doe")
        XCTAssertEqual((doc["phones"] as? [[String: Any]])?.map { $0["number"] as? String }, ["+1 555 0100"])
        XCTAssertEqual((doc["emails"] as? [[String: Any]])?.map { $0["address"] as? String }, ["jane@example.org"])
        XCTAssertEqual((doc["photo"] as? [String: Any])?["sha1"] as? String, try sha1Hex(png))
    }

    func testAnOutlookFormFeedCostsOnlyTheCharacterAndANamelessCardIsRefused() throws {
        let (t, _) = try VCardEndToEndTests.account("ol")
        let outlook = VCardExportShapes.outlook2003
        let path = t.home + "/outlook.vcf"
        try Data(outlook.utf8).write(to: URL(fileURLWithPath: path))
        let r = try t.run("xmpp-vcard", ["import", path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(path): line 10: dropped a control character (U+000C) from FBURL"), r.stderr)
        XCTAssertTrue(r.stderr.contains("\(path): line 12: left out REV '20061231T120000Z'"), r.stderr)
        let doc = try VCardEndToEndTests.object(try t.run("xmpp-vcard", ["get", "--json"]))
        XCTAssertEqual(doc["fullname"] as? String, "John Smith")
        XCTAssertEqual(doc["family"] as? String, "Smith")
        XCTAssertEqual(doc["org"] as? String, "Example Inc.")
        XCTAssertEqual(doc["title"] as? String, "Manager")
        XCTAssertEqual((doc["phones"] as? [[String: Any]])?.map { $0["number"] as? String }, ["(555) 555-0100"])
        XCTAssertEqual((doc["emails"] as? [[String: Any]])?.map { $0["address"] as? String }, ["john@example.org"])
        let address = (doc["addresses"] as? [[String: Any]])?.first
        XCTAssertEqual(address?["street"] as? String, "100 Main St\nSuite 5")
        XCTAssertEqual(address?["country"] as? String, "United States of America")
        // Where the server keeps fields vcard-temp does not name (ejabberd), FBURL is there without
        // the form feed; Prosody keeps none (and import says so).
        let fburls = ((doc["other"] as? [[String: Any]]) ?? []).filter { $0["field"] as? String == "FBURL" }.map { $0["value"] as? String }
        if t.server.has("vcard-complete") {
            XCTAssertEqual(fburls, ["http://example.org/freebusy/john.vfb"])
        } else {
            XCTAssertEqual(fburls, [])
            XCTAssertTrue(r.stderr.contains("the server did not keep FBURL (http://example.org/freebusy/john.vfb)"), r.stderr)
        }

        // A card whose FN and N are all left out would replace the name with none: refused, nothing sent.
        let nameless = try t.run("xmpp-vcard", ["import", "-"],
                                 stdin: "BEGIN:VCARD\r\nVERSION:2.1\r\nFN;QUOTED-PRINTABLE:J=C3=28\r\nTEL:1\r\nEND:VCARD\r\n")
        XCTAssertEqual(nameless.status, 9, nameless.stderr)
        XCTAssertTrue(nameless.stderr.contains("standard input: line 3: left out FN 'J=C3=28'"), nameless.stderr)
        XCTAssertTrue(nameless.stderr.contains("the card's name (FN and N) was left out (see the warnings above); nothing was imported"),
                      nameless.stderr)
        let after = try VCardEndToEndTests.object(try t.run("xmpp-vcard", ["get", "--json"]))
        XCTAssertEqual(after["fullname"] as? String, "John Smith")
    }
}
