import Foundation
import XCTest

/// A vCard 4.0 file in and out of the vCard4 node (XEP-0292) natively: properties no field maps
/// (GENDER, ANNIVERSARY, LANG, GEO, X-…) reach the node on `import` and come back on
/// `get --format vcf4`, while vcard-temp and the nickname node get the mapped fields.
final class VCard4FileEndToEndTests: XCTestCase {
    static let file = """
        BEGIN:VCARD\r
        VERSION:4.0\r
        FN;ALTID=1;LANGUAGE=en:Zoë Four\r
        FN;ALTID=1;LANGUAGE=fr:Zoë Quatre\r
        NICKNAME:Zed\r
        EMAIL;TYPE=work:zoe@example.org\r
        NOTE:commas\\, semicolons\\; and a\\nline break\r
        GENDER:F\r
        ANNIVERSARY:20090808\r
        LANG;PREF=1:fr\r
        GEO:geo:46.772673,-71.282945\r
        X-FOO;X-PARAM="a:b":bar\\, baz\r
        END:VCARD\r

        """

    /// The unmapped properties as the export writes them.
    static let unmappedLines = ["FN;ALTID=1;LANGUAGE=en:Zoë Four", "FN;ALTID=1;LANGUAGE=fr:Zoë Quatre", "GENDER:F", "ANNIVERSARY:20090808", "LANG;PREF=1:fr", "GEO:geo:46.772673,-71.282945",
                                "X-FOO;X-PARAM=\"a:b\":bar\\, baz"]

    func testA40FileReachesTheVCard4NodeWithItsUnmappedPropertiesAndComesBack() throws {
        let (t, account) = try ProfileStoresEndToEndTests.account("v4")
        let path = t.home + "/four.vcf"
        try Data(Self.file.utf8).write(to: URL(fileURLWithPath: path))
        let imported = try t.run("xmpp-vcard", ["import", path, "--json"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertFalse(imported.stderr.contains("GENDER"), "the vCard4 node keeps GENDER, so it is not lost: \(imported.stderr)")
        XCTAssertTrue(imported.stderr.contains("vcard-temp leaves out FN 'Zoë Quatre'"), imported.stderr)
        let report = try VCardEndToEndTests.object(imported)
        XCTAssertEqual(report["dropped_fields"] as? [String], [], "the other FN form reached the vCard4 node")
        let stores = try XCTUnwrap(report["stores"] as? [[String: Any]])
        XCTAssertEqual(stores.first { $0["store"] as? String == "vcard4" }?["status"] as? String, "updated")

        // The mapped fields reach vcard-temp and the nickname node as from a 3.0 file.
        let temp = try ProfileStoresEndToEndTests.get(t, ["--store", "vcard-temp"])
        XCTAssertEqual(temp["fullname"] as? String, "Zoë Four")
        XCTAssertEqual(temp["nickname"] as? String, "Zed")
        XCTAssertEqual((temp["emails"] as? [[String: Any]])?.first?["address"] as? String, "zoe@example.org")
        XCTAssertEqual(try ProfileStoresEndToEndTests.get(t, ["--store", "nick"])["nickname"] as? String, "Zed")
        let merged = try ProfileStoresEndToEndTests.get(t, [])
        XCTAssertEqual(merged["note"] as? String, "commas, semicolons; and a\nline break")
        XCTAssertEqual(merged["fullname"] as? String, "Zoë Four")

        // Another client reads the unmapped properties from the vCard4 node itself.
        if (try? SlixmppPeer.require()) != nil {
            let seen = try SlixmppPeer.run(t, account: account, mode: "read", [account.0])
            let v4 = try XCTUnwrap(seen["vcard4"] as? [String: [String]], "\(seen)")
            XCTAssertEqual(v4["fn"], ["1", "en", "Zoë Four"], "the first FN, its ALTID and LANGUAGE")
            XCTAssertEqual(v4["gender"], ["F"])
            XCTAssertEqual(v4["anniversary"], ["20090808"])
            XCTAssertEqual(v4["lang"], ["1", "fr"], "the PREF parameter and the language tag")
            XCTAssertEqual(v4["geo"], ["geo:46.772673,-71.282945"])
            XCTAssertEqual(v4["x-foo"], ["a:b", "bar\\, baz"], "an unknown property keeps its value as written")
        }

        // Exported from the vCard4 node again, intact, and the export imports to the same file.
        let export = try t.run("xmpp-vcard", ["get", "--format", "vcf4", "--store", "vcard4"])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stdout.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\n"), export.stdout)
        let lines = export.stdout.components(separatedBy: "\r\n")
        for line in Self.unmappedLines { XCTAssertTrue(lines.contains(line), "\(line) in \(export.stdout)") }
        XCTAssertTrue(lines.contains("NOTE:commas\\, semicolons\\; and a\\nline break"), export.stdout)
        let all = try t.run("xmpp-vcard", ["get", "--format", "vcf4"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertEqual(all.stderr, "", "the merged export leaves nothing out")
        let allLines = all.stdout.components(separatedBy: "\r\n")
        for line in Self.unmappedLines {
            XCTAssertEqual(allLines.filter { $0 == line }.count, 1, "\(line) once, though vcard-temp may hold it too: \(all.stdout)")
        }
        // The cache holds the node's unmapped properties too: offline, the same 4.0 file.
        let cached = try t.run("xmpp-vcard", ["get", "--cached", "--format", "vcf4"])
        XCTAssertEqual(cached.status, 0, cached.stderr)
        XCTAssertEqual(cached.stdout, all.stdout, "get --cached --format vcf4 writes what the online get wrote")
        XCTAssertEqual(cached.stderr, "")
        let again = try t.run("xmpp-vcard", ["import", "-", "--json"], stdin: all.stdout)
        XCTAssertEqual(again.status, 0, again.stderr)
        let againStores = try XCTUnwrap(try VCardEndToEndTests.object(again)["stores"] as? [[String: Any]])
        XCTAssertEqual(againStores.first { $0["store"] as? String == "vcard4" }?["status"] as? String, "unchanged",
                       "the export of the import imports to the same vCard4 node")
        XCTAssertEqual(try t.run("xmpp-vcard", ["get", "--format", "vcf4"]).stdout, all.stdout)
        XCTAssertEqual(try t.run("xmpp-vcard", ["get", "--cached", "--format", "vcf4"]).stdout, all.stdout,
                       "the import's own read-back cached the properties it published")
    }

    /// A 3.0 file still goes through the vcard-temp fields: no 4.0 xCard, the node's unmapped
    /// properties (here GENDER, from another client) kept under the new fields.
    func testA30FileKeepsTheVCard4NodesOwnProperties() throws {
        let (t, _) = try ProfileStoresEndToEndTests.account("v3")
        let four = t.home + "/four.vcf", three = t.home + "/three.vcf"
        try Data("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:First\r\nGENDER:M\r\nEND:VCARD\r\n".utf8).write(to: URL(fileURLWithPath: four))
        try Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Second\r\nN:;;;;\r\nEND:VCARD\r\n".utf8).write(to: URL(fileURLWithPath: three))
        XCTAssertEqual(try t.run("xmpp-vcard", ["import", four]).status, 0)
        let r = try t.run("xmpp-vcard", ["import", three])
        XCTAssertEqual(r.status, 0, r.stderr)
        let export = try t.run("xmpp-vcard", ["get", "--format", "vcf4", "--store", "vcard4"])
        let lines = export.stdout.components(separatedBy: "\r\n")
        XCTAssertTrue(lines.contains("FN:Second"), export.stdout)
        XCTAssertTrue(lines.contains("GENDER:M"), export.stdout)
    }
}
