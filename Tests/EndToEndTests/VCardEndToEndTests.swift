import Foundation
import XCTest

/// xmpp-vcard set/get against the real Prosody (vcard_legacy): round trips, merges, read-back.
final class VCardEndToEndTests: XCTestCase {
    /// An 8×8 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAFElEQVR4nGM8wcXFgA0wYRUdtBIAse4A7AgtPbsAAAAASUVORK5CYII=")!

    /// What the server should hold for `png`: the avatar pipeline's 100×100 PNG (the same bytes
    /// `xmpp-avatar resize` makes), and its SHA-1.
    static func resizedPhoto(_ t: ToolRunner) throws -> (data: Data, sha1: String) {
        let input = t.home + "/photo-in.png", output = t.home + "/photo-resized.png"
        try png.write(to: URL(fileURLWithPath: input))
        let r = try t.run("xmpp-avatar", ["resize", input, "-o", output, "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try XCTUnwrap(try ToolRunner.json(r) as? [String: Any])
        return (try Data(contentsOf: URL(fileURLWithPath: output)), try XCTUnwrap(doc["hash"] as? String))
    }

    /// A logged-in account in its own home directory.
    static func account(_ prefix: String) throws -> (ToolRunner, String) {
        let t = try ToolRunner(server: try TestServer.require())
        let (jid, _) = try t.makeAccount(prefix, login: true)
        return (t, jid)
    }

    static func object(_ r: RunResult) throws -> [String: Any] {
        try XCTUnwrap(try ToolRunner.json(r) as? [String: Any], r.stdout)
    }

    /// Every field Prosody keeps, as `set` options.
    static func keptFields(_ t: ToolRunner, photo: Bool) throws -> [String] {
        var args = ["set", "--fullname", "Zoë Ångström", "--given", "Zoë", "--family", "Ångström", "--middle", "M",
                    "--prefix", "Dr.", "--suffix", "Jr.", "--nickname", "zo ☃", "--birthday", "1990-02-28",
                    "--org", "Wonderland, Inc.", "--title", "Queen; of Hearts", "--role", "Judge",
                    "--email", "work:zoe@example.org", "--phone", "home:+1 555 0100",
                    "--address", "work:1 High St;Oxford;Oxon;OX1 1AA;UK;Flat 2;PO 7",
                    "--url", "https://example.org/zoë", "--note", "line one\nline two — ünïcødé 😀",
                    "--jabber-id", "zoe@example.org", "--access", "open"]  // other accounts read it: no subscription
        if photo {
            let path = t.home + "/me.png"
            try png.write(to: URL(fileURLWithPath: path))
            args += ["--photo", path]
        }
        return args
    }

    static func assertKept(_ doc: [String: Any], on server: TestServer, file: StaticString = #filePath, line: UInt = #line) {
        let expected: [String: String] = [
            "fullname": "Zoë Ångström", "given": "Zoë", "family": "Ångström", "middle": "M", "prefix": "Dr.", "suffix": "Jr.",
            "nickname": "zo ☃", "birthday": "1990-02-28", "org": "Wonderland, Inc.", "title": "Queen; of Hearts",
            "role": "Judge", "url": "https://example.org/zoë", "note": "line one\nline two — ünïcødé 😀",
            "jabber_id": "zoe@example.org",
        ]
        for (key, value) in expected { XCTAssertEqual(doc[key] as? String, value, key, file: file, line: line) }
        let emails = doc["emails"] as? [[String: Any]]
        XCTAssertEqual(emails?.count, 1, file: file, line: line)
        XCTAssertEqual(emails?.first?["address"] as? String, "zoe@example.org", file: file, line: line)
        XCTAssertEqual(emails?.first?["types"] as? [String], server.dropsVCardFields ? ["internet", "work"] : ["work"],
                       "Prosody adds INTERNET", file: file, line: line)
        let phones = doc["phones"] as? [[String: Any]]
        XCTAssertEqual(phones?.count, 1, file: file, line: line)
        XCTAssertEqual(phones?.first?["number"] as? String, "+1 555 0100", file: file, line: line)
        XCTAssertEqual(phones?.first?["types"] as? [String], ["home"], file: file, line: line)
        let address = (doc["addresses"] as? [[String: Any]])?.first
        XCTAssertEqual(address?["street"] as? String, "1 High St", file: file, line: line)
        XCTAssertEqual(address?["locality"] as? String, "Oxford", file: file, line: line)
        XCTAssertEqual(address?["region"] as? String, "Oxon", file: file, line: line)
        XCTAssertEqual(address?["code"] as? String, "OX1 1AA", file: file, line: line)
        XCTAssertEqual(address?["country"] as? String, "UK", file: file, line: line)
        XCTAssertEqual(address?["extended"] as? String, "Flat 2", file: file, line: line)
        XCTAssertEqual(address?["pobox"] as? String, "PO 7", file: file, line: line)
        XCTAssertEqual(address?["types"] as? [String], ["work"], file: file, line: line)
    }

    func testEveryKeptFieldRoundTripsSilently() throws {
        try TestServer.require().require("vcard-types", "the expected fields include EMAIL, TEL and ADR types")
        let (t, jid) = try Self.account("vk")
        let set = try t.run("xmpp-vcard", try Self.keptFields(t, photo: true) + ["--json"])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stderr, "", "no read-back warning for fields the server keeps")
        let report = try Self.object(set)
        XCTAssertEqual(report["status"] as? String, "updated")
        XCTAssertEqual(report["dropped_fields"] as? [String], [])
        XCTAssertEqual((report["changed_fields"] as? [String])?.count, 18, "\(report)")

        let get = try t.run("xmpp-vcard", ["get", "--json"])
        XCTAssertEqual(get.status, 0, get.stderr)
        let doc = try Self.object(get)
        XCTAssertEqual(doc["jid"] as? String, jid)
        XCTAssertEqual(doc["source"] as? String, "server")
        Self.assertKept(doc, on: t.server)
        let photo = try XCTUnwrap(doc["photo"] as? [String: Any])
        let expected = try Self.resizedPhoto(t)
        XCTAssertEqual(photo["type"] as? String, "image/png")
        XCTAssertEqual(photo["bytes"] as? Int, expected.data.count)
        XCTAssertEqual(photo["sha1"] as? String, expected.sha1)
        XCTAssertEqual(doc["other_fields"] as? [String], [])

        let out = t.home + "/out.png"
        let saved = try t.run("xmpp-vcard", ["get", "--photo-out", out, "--field", "photo_type"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertEqual(saved.stdout, "image/png\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), expected.data)
    }

    func testReadBackNamesEachDroppedField() throws {
        try TestServer.require().require("vcard-types", "the expected fields include EMAIL, TEL and ADR types")
        let (t, _) = try Self.account("vd")
        // vcard-temp alone, as before the other stores: what the server itself keeps.
        let r = try t.run("xmpp-vcard", ["set", "--store", "vcard-temp", "--nickname", "kept", "--org", "Org", "--org-unit", "Research",
                                         "--email", "work,pref:a@example.org", "--phone", "cell:+49 30 1234", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let warnings = r.stderr.split(separator: "\n").map(String.init)
        let drops = t.server.dropsVCardFields
        XCTAssertEqual(warnings, drops ? [
            "xmpp-vcard: warning: the server did not keep org_unit (Research)",
            "xmpp-vcard: warning: the server did not keep email.type (pref on a@example.org)",
            "xmpp-vcard: warning: the server did not keep phone.type (cell on +49 30 1234)",
        ] : [], "a server that keeps everything gets no warning")
        let report = try Self.object(r)
        XCTAssertEqual(report["dropped_fields"] as? [String], drops ? ["org_unit", "email.type", "phone.type"] : [])
        XCTAssertFalse(r.stderr.contains("nickname") || r.stderr.contains("did not keep org "), "kept fields stay silent")
        // Text mode warns the same way; -q silences the warning but not the JSON.
        let text = try t.run("xmpp-vcard", ["set", "--store", "vcard-temp", "--org-unit", "Other"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stderr, drops ? "xmpp-vcard: warning: the server did not keep org_unit (Other)\n" : "")
        XCTAssertEqual(text.stdout, "Updated the vCard of \(try XCTUnwrap(report["jid"] as? String)): org_unit.\n",
                       "only org_unit changed")
    }

    func testMergeKeepsUntouchedFieldsAndClearRemovesOnlyOne() throws {
        try TestServer.require().require("vcard-types", "the expected fields include EMAIL, TEL and ADR types")
        let (t, _) = try Self.account("vm")
        XCTAssertEqual(try t.run("xmpp-vcard", try Self.keptFields(t, photo: true)).status, 0)
        let nick = try t.run("xmpp-vcard", ["set", "--nickname", "new nick", "--json"])
        XCTAssertEqual(nick.status, 0, nick.stderr)
        XCTAssertEqual(try Self.object(nick)["changed_fields"] as? [String], ["nickname"])
        var doc = try Self.object(try t.run("xmpp-vcard", ["get", "--json"]))
        XCTAssertEqual(doc["nickname"] as? String, "new nick")
        doc["nickname"] = "zo ☃"
        Self.assertKept(doc, on: t.server)
        XCTAssertNotNil(doc["photo"] as? [String: Any], "the photo survives a merge")

        let clear = try t.run("xmpp-vcard", ["set", "--clear", "note", "--clear", "phone"])
        XCTAssertEqual(clear.status, 0, clear.stderr)
        let after = try Self.object(try t.run("xmpp-vcard", ["get", "--json"]))
        XCTAssertTrue(after["note"] is NSNull)
        XCTAssertEqual((after["phones"] as? [Any])?.count, 0)
        XCTAssertEqual(after["title"] as? String, "Queen; of Hearts")
        XCTAssertEqual((after["emails"] as? [Any])?.count, 1)

        let same = try t.run("xmpp-vcard", ["set", "--title", "Queen; of Hearts"])
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertTrue(same.stdout.contains("nothing was sent"), same.stdout)
    }

    func testAnotherAccountReadsYourCardAndMissingCardsAreExitFour() throws {
        try TestServer.require().require("vcard-types", "the expected fields include EMAIL, TEL and ADR types")
        let (alice, aliceJID) = try Self.account("va")
        let (bob, bobJID) = try Self.account("vb")
        XCTAssertEqual(try alice.run("xmpp-vcard", try Self.keptFields(alice, photo: false)).status, 0)
        let local = String(aliceJID.split(separator: "@")[0])
        let r = try bob.run("xmpp-vcard", ["get", local, "--json"])  // a bare name is a user on one's own domain
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try Self.object(r)
        XCTAssertEqual(doc["jid"] as? String, aliceJID)
        Self.assertKept(doc, on: bob.server)

        let nickname = try bob.run("xmpp-vcard", ["get", aliceJID, "--field", "nickname"])
        XCTAssertEqual(nickname.stdout, "zo ☃\n")
        let text = try bob.run("xmpp-vcard", ["get", aliceJID])
        XCTAssertTrue(text.stdout.contains("note\tline one\\nline two — ünïcødé 😀\n"), text.stdout)

        // bob has no card: empty for himself (exit 0), missing for alice (exit 4); so is a non-account.
        let own = try bob.run("xmpp-vcard", ["get", "--json"])
        XCTAssertEqual(own.status, 0, own.stderr)
        XCTAssertTrue(try Self.object(own)["fullname"] is NSNull)
        let missing = try alice.run("xmpp-vcard", ["get", bobJID])
        XCTAssertEqual(missing.status, 4, missing.stderr)
        XCTAssertEqual(missing.stdout, "")
        XCTAssertTrue(missing.stderr.contains("\(bobJID) has no vCard"), missing.stderr)
        XCTAssertEqual(try alice.run("xmpp-vcard", ["get", "nobody-\(UUID().uuidString.prefix(8))@\(alice.server.domain)"]).status, 4)
        let unset = try alice.run("xmpp-vcard", ["get", "--field", "org_unit"])
        XCTAssertEqual(unset.status, 0, unset.stderr)
        XCTAssertEqual(unset.stdout, "", "an unset field prints nothing")
    }

    func testBadValuesAreRefusedBeforeAnythingIsSent() throws {
        let (t, _) = try Self.account("vx")
        XCTAssertEqual(try t.run("xmpp-vcard", ["set", "--birthday", "1990-02-30"]).status, 2)
        XCTAssertEqual(try t.run("xmpp-vcard", ["set", "--phone", "mobile:+1"]).status, 2)
        XCTAssertEqual(try t.run("xmpp-vcard", ["set", "--note", "x", "--clear", "note"]).status, 2)
        XCTAssertEqual(try t.run("xmpp-vcard", ["set"]).status, 2)
        let notImage = t.home + "/x.txt"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: notImage))
        let r = try t.run("xmpp-vcard", ["set", "--photo", notImage])
        XCTAssertEqual(r.status, 9, r.stderr)
        XCTAssertTrue(r.stderr.contains("not a PNG, JPEG, GIF or WebP"), r.stderr)
        XCTAssertEqual(try Self.object(try t.run("xmpp-vcard", ["get", "--json"]))["birthday"] as? NSNull, NSNull())
    }
}
