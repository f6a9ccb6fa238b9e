import Foundation
import XCTest

/// One profile in three stores (vcard-temp, vCard4 XEP-0292, nickname XEP-0172), on the real
/// server, and slixmpp reading what we publish and publishing what we read.
final class ProfileStoresEndToEndTests: XCTestCase {
    static func account(_ prefix: String) throws -> (ToolRunner, (String, String)) {
        let t = try ToolRunner(server: try TestServer.require())
        try t.server.require("pep", "the vCard4 and nickname stores are PEP nodes")
        let account = try t.makeAccount(prefix, login: true)
        return (t, account)
    }

    static func get(_ t: ToolRunner, _ args: [String]) throws -> [String: Any] {
        let r = try t.run("xmpp-vcard", ["get", "--json"] + args)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try VCardEndToEndTests.object(r)
    }

    func testSetWritesEveryStoreAndEachReadsItBack() throws {
        let (t, _) = try Self.account("ps")
        let r = try t.run("xmpp-vcard", ["set", "--nickname", "Ally ☃", "--fullname", "Alice Liddell", "--email",
                                         "work:alice@example.org", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let stores = try XCTUnwrap(try VCardEndToEndTests.object(r)["stores"] as? [[String: Any]])
        XCTAssertEqual(stores.map { $0["store"] as? String }, ["vcard-temp", "vcard4", "nick"])
        XCTAssertEqual(stores.map { $0["status"] as? String }, ["updated", "updated", "updated"])
        XCTAssertEqual(stores.last?["changed_fields"] as? [String], ["nickname"])

        for store in ["vcard-temp", "vcard4"] {
            let doc = try Self.get(t, ["--store", store])
            XCTAssertEqual(doc["nickname"] as? String, "Ally ☃", store)
            XCTAssertEqual(doc["fullname"] as? String, "Alice Liddell", store)
            XCTAssertEqual((doc["emails"] as? [[String: Any]])?.first?["address"] as? String, "alice@example.org", store)
            XCTAssertEqual(doc["stores"] as? [String], [store])
        }
        let nick = try Self.get(t, ["--store", "nick"])
        XCTAssertEqual(nick["nickname"] as? String, "Ally ☃")
        XCTAssertTrue(nick["fullname"] is NSNull)
        let merged = try Self.get(t, [])
        XCTAssertEqual(merged["stores"] as? [String], ["vcard-temp", "vcard4", "nick"])
        XCTAssertEqual((merged["field_sources"] as? [String: String])?["nickname"], "nick")
        XCTAssertEqual((merged["conflicts"] as? [Any])?.count, 0)

        // Again: every store holds it, nothing is sent.
        let again = try t.run("xmpp-vcard", ["set", "--nickname", "Ally ☃"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("nothing was sent"), again.stdout)
        // The cache holds the merged view.
        let cached = try Self.get(t, ["--cached"])
        XCTAssertEqual(cached["nickname"] as? String, "Ally ☃")
        XCTAssertEqual(cached["source"] as? String, "cache")
    }

    func testStoreNickChangesOnlyTheNicknameNodeAndGetFlagsTheConflict() throws {
        let (t, _) = try Self.account("pn")
        XCTAssertEqual(try t.run("xmpp-vcard", ["set", "--nickname", "One"]).status, 0)
        let r = try t.run("xmpp-vcard", ["set", "--store", "nick", "--nickname", "Two"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try t.run("xmpp-vcard", ["set", "--store", "nick", "--fullname", "X"]).status, 2)
        let merged = try Self.get(t, [])
        XCTAssertEqual(merged["nickname"] as? String, "Two")
        let conflicts = try XCTUnwrap(merged["conflicts"] as? [[String: Any]])
        XCTAssertEqual(conflicts.first?["field"] as? String, "nickname")
        let values = try XCTUnwrap(conflicts.first?["values"] as? [[String: String]])
        XCTAssertEqual(values.first, ["store": "nick", "value": "Two"])
        XCTAssertTrue(values.contains(["store": "vcard4", "value": "One"]), "\(values)")
        let text = try t.run("xmpp-vcard", ["get"])
        XCTAssertTrue(text.stderr.contains("the stores disagree on nickname (nick: Two; vcard4: One"), text.stderr)
    }

    func testRegisterNicknameReachesTheNicknameNodeAndVCard4() throws {
        let t = try ToolRunner(server: try TestServer.require())
        try t.server.require("pep", "the nickname node is PEP")
        try t.server.require("register", "the account is made by in-band registration")
        try t.server.require("register-unthrottled", "each test registers fresh accounts")
        let jid = t.jid(ToolRunner.username("pr"))
        let password = "pw-" + UUID().uuidString
        let r = try t.run("xmpp-register", [jid, "--nickname", "Newbie", "--fullname", "New User"] + t.serverArgs,
                          password: password)
        XCTAssertEqual(r.status, 0, r.stderr)
        try t.logIn(jid, password)  // SCRAM keys, or a password command where they cannot be cached
        XCTAssertEqual(try Self.get(t, ["--store", "nick"])["nickname"] as? String, "Newbie")
        let v4 = try Self.get(t, ["--store", "vcard4"])
        XCTAssertEqual(v4["nickname"] as? String, "Newbie")
        XCTAssertEqual(v4["fullname"] as? String, "New User")
    }

    /// A batch's nickname and fullname columns reach vcard-temp, vCard4 and the nickname node,
    /// with an avatar column (the avatar step first) and without.
    func testBatchProfileColumnsReachEveryStore() throws {
        let t = try ToolRunner(server: try TestServer.require())
        try t.server.require("pep", "the vCard4 and nickname stores are PEP nodes")
        try t.server.require("register", "the batch registers its accounts")
        try t.server.require("register-unthrottled", "two accounts from one address")
        try VCardEndToEndTests.png.write(to: URL(fileURLWithPath: t.home + "/logo.png"))
        let users = (0..<2).map { _ in ToolRunner.username("pc") }
        let csv = t.home + "/p.csv"
        try Data(("jid,password,nickname,fullname,avatar\n" + users.enumerated().map { i, u in
            "\(t.jid(u)),pw-\(u),Nick \(i),Person \(i),\(i == 0 ? "logo.png" : "")"
        }.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: csv))
        let r = try t.run("xmpp-register", ["batch", csv, "--json"] + t.serverArgs)
        XCTAssertEqual(r.status, 0, r.stderr + r.stdout)
        for (i, user) in users.enumerated() {
            let me = try ToolRunner(server: t.server)
            XCTAssertEqual(try me.run("xmpp-login", [t.jid(user), "-q"] + t.serverArgs, password: "pw-\(user)").status, 0)
            for store in ["vcard-temp", "vcard4", "nick"] {
                let got = try Self.get(me, ["--store", store])
                XCTAssertEqual(got["nickname"] as? String, "Nick \(i)", "row \(i), \(store): \(got); the batch said: \(r.stdout) \(r.stderr)")
            }
            XCTAssertEqual(try Self.get(me, ["--store", "vcard4"])["fullname"] as? String, "Person \(i)", "row \(i)")
        }
    }

    /// slixmpp, as another account, reads the nickname and vCard4 we published (open access).
    func testSlixmppReadsWhatWePublish() throws {
        try SlixmppPeer.require()
        let (alice, aliceAccount) = try Self.account("pa")
        let (_, bob) = try Self.account("pb")
        let r = try alice.run("xmpp-vcard", ["set", "--nickname", "Alice ☃", "--fullname", "Alice L", "--note", "two\nlines",
                                             "--access", "open"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let seen = try SlixmppPeer.run(alice, account: bob, mode: "read", [aliceAccount.0])
        XCTAssertEqual(seen["nick"] as? String, "Alice ☃")
        let v4 = try XCTUnwrap(seen["vcard4"] as? [String: [String]], "\(seen)")
        XCTAssertEqual(v4["fn"], ["Alice L"])
        XCTAssertEqual(v4["nickname"], ["Alice ☃"])
        XCTAssertEqual(v4["note"], ["two\nlines"])
    }

    /// slixmpp publishes a nickname and a vCard4 with a property we do not map (GENDER); `get`
    /// shows them, `set --nickname` keeps GENDER, and slixmpp reads the new nickname back.
    func testWeReadWhatSlixmppPublishesAndKeepWhatWeDoNotMap() throws {
        try SlixmppPeer.require()
        let (t, account) = try Self.account("pg")
        let vcard4 = "<vcard xmlns='urn:ietf:params:xml:ns:vcard-4.0'><fn><text>Gajim User</text></fn>"
            + "<note><text>edited elsewhere</text></note><gender><sex>F</sex></gender></vcard>"
        _ = try SlixmppPeer.run(t, account: account, mode: "publish", ["Slix", vcard4])
        try Self.assertGetShowsPublished(t, note: "edited elsewhere", nickname: "Slix")

        try ProfileStoresEndToEndTests.assertRenameKeepsGender(t, account) {
            try SlixmppPeer.run(t, account: account, mode: "read", [account.0])
        }
    }

    /// `get` after another client published `nickname` and a vCard4 of FN "Gajim User" with
    /// `note`: each shown, from its own store. The whole document, for a test's other checks.
    @discardableResult
    static func assertGetShowsPublished(_ t: ToolRunner, note: String, nickname: String,
                                        file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let doc = try get(t, [])
        XCTAssertEqual(doc["fullname"] as? String, "Gajim User", file: file, line: line)
        XCTAssertEqual(doc["note"] as? String, note, file: file, line: line)
        XCTAssertEqual(doc["nickname"] as? String, nickname, file: file, line: line)
        XCTAssertEqual((doc["field_sources"] as? [String: String])?["fullname"], "vcard4", file: file, line: line)
        XCTAssertEqual((doc["field_sources"] as? [String: String])?["nickname"], "nick", file: file, line: line)
        return doc
    }

    /// `set --nickname Renamed` on an account whose vCard4 (FN "Gajim User") has a GENDER no
    /// field maps; `read` is another client reading the account's profile back: the new
    /// nickname, and the GENDER and FN kept.
    static func assertRenameKeepsGender(_ t: ToolRunner, _ account: (String, String), read: () throws -> [String: Any],
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try t.run("xmpp-vcard", ["set", "--nickname", "Renamed"])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        let seen = try read()
        XCTAssertEqual(seen["nick"] as? String, "Renamed", file: file, line: line)
        let v4 = try XCTUnwrap(seen["vcard4"] as? [String: [String]], "\(seen)", file: file, line: line)
        XCTAssertEqual(v4["gender"], ["F"], "a vCard4 property xmpp-vcard does not map survives a set", file: file, line: line)
        XCTAssertEqual(v4["fn"], ["Gajim User"], file: file, line: line)
        XCTAssertEqual(v4["nickname"], ["Renamed"], file: file, line: line)
    }
}
