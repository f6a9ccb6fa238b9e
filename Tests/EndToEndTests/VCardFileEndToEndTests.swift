import Foundation
import XCTest

/// xmpp-vcard export (`get --format vcf`) and `import` against the real Prosody.
final class VCardFileEndToEndTests: XCTestCase {
    func testExportThenImportRoundTripsEveryKeptField() throws {
        let (alice, _) = try VCardEndToEndTests.account("fa")
        let (bob, bobJID) = try VCardEndToEndTests.account("fb")
        XCTAssertEqual(try alice.run("xmpp-vcard", try VCardEndToEndTests.keptFields(alice, photo: true)).status, 0)
        let export = try alice.run("xmpp-vcard", ["get", "--format", "vcf"])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stdout.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Zoë Ångström\r\n"), export.stdout)
        XCTAssertTrue(export.stdout.contains("\r\nORG:Wonderland\\, Inc.\r\n"), "commas are escaped: \(export.stdout)")
        XCTAssertTrue(export.stdout.contains("\r\nTITLE:Queen\\; of Hearts\r\n"), export.stdout)
        XCTAssertTrue(export.stdout.contains("\r\nNOTE:line one\\nline two — ünïcødé 😀\r\n"), export.stdout)
        for line in export.stdout.components(separatedBy: "\r\n") { XCTAssertLessThanOrEqual(line.utf8.count, 75, line) }

        let file = bob.home + "/alice.vcf"
        try Data(export.stdout.utf8).write(to: URL(fileURLWithPath: file))
        let imported = try bob.run("xmpp-vcard", ["import", file, "--json"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        // Without PEP (jabberd2) import says so of vCard4 and the nickname node, and nothing else.
        let warnings = imported.stderr.split(separator: "\n").filter { bob.server.has("pep") || !$0.contains("the server has no PEP") }
        XCTAssertEqual(warnings, [], imported.stderr)
        let report = try VCardEndToEndTests.object(imported)
        XCTAssertEqual(report["status"] as? String, "imported")
        XCTAssertEqual(report["dropped_fields"] as? [String], [])

        let a = try VCardEndToEndTests.object(try alice.run("xmpp-vcard", ["get", "--json"]))
        var b = try VCardEndToEndTests.object(try bob.run("xmpp-vcard", ["get", "--json"]))
        XCTAssertEqual(b["jid"] as? String, bobJID)
        b["jid"] = a["jid"]
        XCTAssertEqual(NSDictionary(dictionary: b), NSDictionary(dictionary: a))
        // And again through a pipe: the export of the import is the same file.
        let again = try bob.run("xmpp-vcard", ["get", "--format", "vcf"])
        XCTAssertEqual(again.stdout, export.stdout)
        XCTAssertEqual(try bob.run("xmpp-vcard", ["import", "-"], stdin: again.stdout).status, 0)
    }

    /// Issue 14: a card another client published with every XEP-0054 element lost GEO, LABEL, KEY,
    /// LOGO, SOUND, AGENT and CLASS on the way through `get --format vcf` and `import`, silently.
    func testACardWithEveryVcardTempElementSurvivesExportAndImport() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (bob, _) = try t.makeAccount("xb", login: true)
        let mallory = try t.makeAccount("xm")
        let card = "<iq type='set' id='v1'><vCard xmlns='vcard-temp'><FN>Jane Doe</FN><N><FAMILY>Doe</FAMILY><GIVEN>Jane</GIVEN></N>"
            + "<TITLE>Engineer</TITLE><LABEL><HOME/><LINE>1 Main Street</LINE><LINE>Springfield</LINE></LABEL>"
            + "<MAILER>slixmpp</MAILER><TZ>+01:00</TZ><GEO><LAT>37.386013</LAT><LON>-122.082932</LON></GEO>"
            + "<LOGO><TYPE>image/png</TYPE><BINVAL>iVBORw0KGgoAAAA=</BINVAL></LOGO>"
            + "<AGENT><vCard><FN>Susan Thomas</FN></vCard></AGENT><PRODID>-//slixmpp//EN</PRODID>"
            + "<REV>2026-11-30T10:00:00Z</REV><SOUND><PHONETIC>jayn doh</PHONETIC></SOUND><CLASS><PRIVATE/></CLASS>"
            + "<KEY><TYPE>PGP</TYPE><CRED>mQINBF</CRED></KEY><TITLE>Second title</TITLE></vCard></iq>"
        let client = try RawStanzaClient.start(serverArgs: t.serverArgs, environment: t.environment, account: mallory, sending: [card])
        _ = client.stop()

        let original = try VCardEndToEndTests.object(try t.run("xmpp-vcard", ["get", mallory.0, "--json", "-a", bob]))
        let kept = (original["other_fields"] as? [String]) ?? []
        if t.server.has("vcard-complete") {
            // ejabberd keeps them all (and reorders the parts of each), but not the second TITLE.
            XCTAssertEqual(Set(kept).subtracting(["TITLE"]),
                           ["LABEL", "MAILER", "TZ", "GEO", "LOGO", "AGENT", "PRODID", "REV", "SOUND", "CLASS", "KEY"])
            let geo = (original["other"] as? [[String: Any]])?.first { $0["field"] as? String == "GEO" }?["value"] as? String
            XCTAssertTrue(geo?.contains("LAT=37.386013") == true && geo?.contains("LON=-122.082932") == true,
                          "get --json shows the values: \(geo ?? "none")")
        }
        let export = try t.run("xmpp-vcard", ["get", mallory.0, "--format", "vcf", "-a", bob])
        XCTAssertEqual(export.status, 0, export.stderr)
        let named = ["PRODID (-//slixmpp//EN)", "REV (2026-11-30T10:00:00Z)"].filter { kept.contains(String($0.prefix { $0 != " " })) }
        XCTAssertEqual(export.stderr.split(separator: "\n").map(String.init).sorted(),
                       named.map { "xmpp-vcard: warning: the .vcf file of \(mallory.0) leaves out \($0)" }, export.stderr)

        let imported = try t.run("xmpp-vcard", ["import", "-", "--json", "-a", bob], stdin: export.stdout)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(try VCardEndToEndTests.object(imported)["dropped_fields"] as? [String], [], imported.stdout)
        var copy = try VCardEndToEndTests.object(try t.run("xmpp-vcard", ["get", "--json", "-a", bob]))
        var expected = original
        let unwritten: Set<String> = ["PRODID", "REV"]
        expected["other_fields"] = kept.filter { !unwritten.contains($0) }
        expected["other"] = (original["other"] as? [[String: Any]])?.filter { !unwritten.contains($0["field"] as? String ?? "") }
        // import writes every store (vCard4 too, where the original had vcard-temp alone): the
        // fields must agree, not which stores hold them.
        for key in ["jid", "source", "fetched_at", "stores", "field_sources"] { copy[key] = expected[key] }
        XCTAssertEqual(NSDictionary(dictionary: copy), NSDictionary(dictionary: expected))
    }

    func testImportReadsVCard4AndReportsWhatTheServerDropped() throws {
        try TestServer.require().require("vcard-types", "the expected fields include EMAIL, TEL and ADR types")
        let (t, _) = try VCardEndToEndTests.account("f4")
        let v4 = """
            BEGIN:VCARD
            VERSION:4.0
            PRODID:-//Apple Inc.//iOS 17.0//EN
            FN:Simon Perreault
            N:Perreault;Simon;;;ing. jr
            BDAY:19650203
            ORG:Viagenie;Research
            EMAIL;TYPE=work:simon.perreault@viagenie.ca
            TEL;VALUE=uri;TYPE="work,voice":tel:+1-418-656-9254
            TZ:-0500
            END:VCARD

            """
        let r = try t.run("xmpp-vcard", ["import", "-", "--json"], stdin: v4)
        XCTAssertEqual(r.status, 0, r.stderr)
        // vCard4 keeps the org unit and phone types Prosody's vcard-temp drops, and the TZ no field
        // maps: a 4.0 file reaches the vCard4 node with every property, so nothing is lost but PRODID.
        let report = try VCardEndToEndTests.object(r)
        XCTAssertEqual(report["dropped_fields"] as? [String], ["PRODID"])
        let first = (report["dropped"] as? [[String: Any]])?.first
        XCTAssertEqual(first?["value"] as? String, "-//Apple Inc.//iOS 17.0//EN")
        XCTAssertEqual(first?["by"] as? String, "input", "the file's PRODID is left out by the reader, not the server")
        XCTAssertTrue(r.stderr.contains("line 3: left out PRODID '-//Apple Inc.//iOS 17.0//EN'"), r.stderr)
        XCTAssertFalse(r.stderr.contains("did not keep TZ"), r.stderr)
        let export = try t.run("xmpp-vcard", ["get", "--format", "vcf4", "--store", "vcard4"])
        XCTAssertTrue(export.stdout.components(separatedBy: "\r\n").contains("TZ:-0500"), export.stdout)
        let doc = try VCardEndToEndTests.object(try t.run("xmpp-vcard", ["get", "--json"]))
        XCTAssertEqual(doc["fullname"] as? String, "Simon Perreault")
        XCTAssertEqual(doc["suffix"] as? String, "ing. jr")
        XCTAssertEqual(doc["birthday"] as? String, "1965-02-03")
        XCTAssertEqual(doc["org"] as? String, "Viagenie")
        XCTAssertEqual((doc["phones"] as? [[String: Any]])?.first?["number"] as? String, "+1-418-656-9254")
    }

    func testImportKeepsThePhotoWhenTheFileHasNone() throws {
        let (t, _) = try VCardEndToEndTests.account("fp")
        XCTAssertEqual(try t.run("xmpp-vcard", try VCardEndToEndTests.keptFields(t, photo: true)).status, 0)
        let r = try t.run("xmpp-vcard", ["import", "-"], stdin: "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Only\r\nEND:VCARD\r\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try VCardEndToEndTests.object(try t.run("xmpp-vcard", ["get", "--json"]))
        XCTAssertEqual(doc["fullname"] as? String, "Only")
        XCTAssertTrue(doc["nickname"] is NSNull, "import replaces the other fields")
        XCTAssertEqual((doc["photo"] as? [String: Any])?["sha1"] as? String, try VCardEndToEndTests.resizedPhoto(t).sha1)
    }

    func testMalformedFileIsExitNineNamingTheLine() throws {
        let (t, _) = try VCardEndToEndTests.account("fm")
        let path = t.home + "/bad.vcf"
        try Data("BEGIN:VCARD\nVERSION:3.0\nFN:Broken\nthis line has no colon\nEND:VCARD\n".utf8).write(to: URL(fileURLWithPath: path))
        let r = try t.run("xmpp-vcard", ["import", path])
        XCTAssertEqual(r.status, 9, r.stderr)
        XCTAssertEqual(r.stderr, "xmpp-vcard: \(path): line 4: expected NAME:VALUE, found 'this line has no colon'\n")
        let two = try t.run("xmpp-vcard", ["import", "-"], stdin: "BEGIN:VCARD\nVERSION:3.0\nFN:a\nEND:VCARD\nBEGIN:VCARD\nVERSION:3.0\nFN:b\nEND:VCARD\n")
        XCTAssertEqual(two.status, 9, two.stderr)
        XCTAssertTrue(two.stderr.contains("holds 2 vCards (lines 1, 5)"), two.stderr)
        let open = try t.run("xmpp-vcard", ["import", "-"], stdin: "\nBEGIN:VCARD\nFN:never closed\n")
        XCTAssertEqual(open.status, 9, open.stderr)
        XCTAssertTrue(open.stderr.contains("standard input: line 2: the vCard begun here has no END:VCARD"), open.stderr)
        XCTAssertEqual(try t.run("xmpp-vcard", ["import", t.home + "/missing.vcf"]).status, 9)
    }
}
