import Foundation
import XCTest

/// A stranger's vCard, published by a raw client with line breaks and controls where our own
/// `set` would never put them: .vcf output stays one card, text output one line a field.
final class VCardHostileTextEndToEndTests: XCTestCase {
    func testHostileCardIsOneCardInVCFAndEscapedInText() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (reader, _) = try t.makeAccount("vr", login: true)
        let mallory = try t.makeAccount("vm")
        let forged = "&#13;&#10;END:VCARD&#13;&#10;BEGIN:VCARD&#13;&#10;VERSION:3.0&#13;&#10;FN:Forged&#13;&#10;EMAIL:evil@example.org"
        let card = "<iq type='set' id='v1'><vCard xmlns='vcard-temp'><FN>Mal\(RawStanzaClient.hostileXML)</FN>"
            + "<URL>https://example.org/\(forged)</URL><NOTE>a&#10;b&#155;</NOTE></vCard></iq>"
        let client = try RawStanzaClient.start(serverArgs: t.serverArgs, environment: t.environment, account: mallory, sending: [card])
        _ = client.stop()

        let vcf = try t.run("xmpp-vcard", ["get", mallory.0, "--format", "vcf", "-a", reader])
        XCTAssertEqual(vcf.status, 0, vcf.stderr)
        let lines = vcf.stdout.components(separatedBy: "\r\n").dropLast()
        XCTAssertEqual(lines.filter { $0.uppercased().hasPrefix("BEGIN:") }.count, 1, "one card: \(vcf.stdout)")
        XCTAssertFalse(lines.contains { $0.contains("\n") || $0.contains("\r") }, vcf.stdout)
        XCTAssertFalse(lines.contains { $0.hasPrefix("FN:Forged") || $0.hasPrefix("EMAIL") }, vcf.stdout)
        let url = lines.joined(separator: "\r\n").replacingOccurrences(of: "\r\n ", with: "")
        // A CR LF sent as character references reaches the tools as one LF (XML line-end handling).
        XCTAssertTrue(url.contains("URL:https://example.org/%0AEND:VCARD%0ABEGIN:VCARD%0AVERSION:3.0%0AFN:Forged"), vcf.stdout)

        let text = try t.run("xmpp-vcard", ["get", mallory.0, "-a", reader])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stdout.split(separator: "\n"), [
            "fullname\tMal\(RawStanzaClient.hostileShown)",
            "url\t" + #"https://example.org/\nEND:VCARD\nBEGIN:VCARD\nVERSION:3.0\nFN:Forged\nEMAIL:evil@example.org"#,
            "note\t" + #"a\nbU+009B"#,
        ].map { Substring($0) })
        let field = try t.run("xmpp-vcard", ["get", mallory.0, "--field", "note", "-a", reader])
        XCTAssertEqual(field.stdout, #"a\nbU+009B"# + "\n", "--field values are escaped as the tab-separated lines are")

        let json = try XCTUnwrap(try ToolRunner.json(try t.run("xmpp-vcard", ["get", mallory.0, "--json", "-a", reader])) as? [String: Any])
        XCTAssertEqual(json["fullname"] as? String, "Mal" + RawStanzaClient.hostile, "JSON keeps the text as it came")
        XCTAssertEqual(json["note"] as? String, "a\nb\u{9B}")
    }

    /// Every JSON Line of a list has every documented key: cards, missing cards, invalid JIDs,
    /// cached cards and --field lines alike (null or [] where there is nothing).
    func testEveryJSONLineHasEveryDocumentedKey() throws {
        let (reader, _) = try VCardEndToEndTests.account("vk")
        let (owner, ownerJID) = try VCardEndToEndTests.account("vo")
        XCTAssertEqual(try owner.run("xmpp-vcard", ["set", "--nickname", "O", "--access", "open"]).status, 0)
        let cardKeys = ["jid", "source", "fetched_at", "fullname", "given", "family", "middle", "prefix", "suffix", "nickname",
                        "birthday", "org", "org_units", "title", "role", "emails", "phones", "addresses", "url", "note",
                        "jabber_id", "photo", "other_fields", "other", "stores", "field_sources", "conflicts", "error", "exit_code"]
        func lines(_ args: [String]) throws -> [[String: Any]] {
            let r = try reader.run("xmpp-vcard", args)
            return try r.stdout.split(separator: "\n").map {
                try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], String($0))
            }
        }
        let fetched = try lines(["get", ownerJID, "a", "b", "bad user@x", "--json"])
        XCTAssertEqual(fetched.count, 4)
        XCTAssertEqual(fetched.map { $0["exit_code"] as? Int }, [0, 4, 4, 9])
        XCTAssertEqual(fetched.map { $0["source"] as? String }, ["server", nil, nil, nil])
        XCTAssertTrue(fetched[0]["error"] is NSNull)
        XCTAssertTrue(fetched[1]["error"] is String)
        let cached = try lines(["get", ownerJID, "c", "--json", "--cached"])
        XCTAssertEqual(cached.map { $0["source"] as? String }, ["cache", nil])
        XCTAssertNotNil(cached[0]["fetched_at"] as? String)
        for line in fetched + cached {
            XCTAssertEqual(Set(line.keys), Set(cardKeys), "\(line)")
        }
        for field in ["nickname", "email"] {
            for line in try lines(["get", ownerJID, "a", "--json", "--field", field]) {
                XCTAssertEqual(Set(line.keys), ["jid", field, "error", "exit_code"], "\(line)")
            }
        }
    }
}
