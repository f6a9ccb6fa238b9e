import Foundation
import XCTest

/// Gajim's library (nbxmpp) reads the vCard4 and nickname we publish, and we read what it
/// publishes, on the real server.
final class NbxmppInteropEndToEndTests: XCTestCase {
    /// Another account reads, with nbxmpp's VCard4 and PubSub modules, what `set` published
    /// (open access); and a 4.0 file's GENDER, imported, is in the node nbxmpp parses.
    func testNbxmppReadsWhatWePublish() throws {
        try NbxmppPeer.require()
        let (alice, aliceAccount) = try ProfileStoresEndToEndTests.account("na")
        let (_, bob) = try ProfileStoresEndToEndTests.account("nb")
        let r = try alice.run("xmpp-vcard", ["set", "--nickname", "Alice ☃", "--fullname", "Alice L", "--note", "two\nlines",
                                             "--email", "work:alice@example.org", "--access", "open"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let seen = try NbxmppPeer.run(alice, account: bob, mode: "read", [aliceAccount.0])
        XCTAssertEqual(seen["nick"] as? String, "Alice ☃", "\(seen)")
        let v4 = try XCTUnwrap(seen["vcard4"] as? [String: [String]], "\(seen)")
        XCTAssertEqual(v4["fn"], ["Alice L"])
        XCTAssertEqual(v4["nickname"], ["Alice ☃"])
        XCTAssertEqual(v4["note"], ["two\nlines"])
        XCTAssertEqual(v4["email"], ["work", "alice@example.org"])

        let file = alice.home + "/four.vcf"
        try Data("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Alice Four\r\nGENDER:F\r\nEND:VCARD\r\n".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(try alice.run("xmpp-vcard", ["import", file]).status, 0)
        let own = try NbxmppPeer.run(alice, account: aliceAccount, mode: "read", [aliceAccount.0])
        let v4own = try XCTUnwrap(own["vcard4"] as? [String: [String]], "\(own)")
        XCTAssertEqual(v4own["fn"], ["Alice Four"])
        XCTAssertEqual(v4own["gender"], ["F"], "a property no field maps, from the file, as nbxmpp parses it")
    }

    /// nbxmpp publishes a nickname and a vCard4 as Gajim does (through its own property model);
    /// `get` shows them, `set --nickname` keeps the GENDER it does not map, and nbxmpp reads the
    /// new nickname and the GENDER back.
    func testWeReadWhatNbxmppPublishesAndKeepWhatWeDoNotMap() throws {
        try NbxmppPeer.require()
        let (t, account) = try ProfileStoresEndToEndTests.account("ng")
        let vcard4 = "<vcard xmlns='urn:ietf:params:xml:ns:vcard-4.0'><fn><text>Gajim User</text></fn>"
            + "<note><text>edited in Gajim</text></note><gender><sex>F</sex></gender>"
            + "<email><parameters><type><text>home</text></type></parameters><text>g@example.org</text></email></vcard>"
        _ = try NbxmppPeer.run(t, account: account, mode: "publish", ["Gajim ☃", vcard4])
        let doc = try ProfileStoresEndToEndTests.assertGetShowsPublished(t, note: "edited in Gajim", nickname: "Gajim ☃")
        XCTAssertEqual((doc["emails"] as? [[String: Any]])?.first?["address"] as? String, "g@example.org")
        let export = try t.run("xmpp-vcard", ["get", "--format", "vcf4", "--store", "vcard4"])
        XCTAssertTrue(export.stdout.components(separatedBy: "\r\n").contains("GENDER:F"), export.stdout)

        try ProfileStoresEndToEndTests.assertRenameKeepsGender(t, account) {
            try NbxmppPeer.run(t, account: account, mode: "read", [account.0])
        }
    }
}
