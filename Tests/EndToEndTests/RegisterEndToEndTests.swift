import Foundation
import XCTest

/// xmpp-register against the real server.
final class RegisterEndToEndTests: XCTestCase {
    func testCreateThenConflictExitsFive() throws {
        try TestServer.require().require("register-unthrottled", "it registers fresh accounts")
        let t = try ToolRunner(server: try TestServer.require())
        let user = ToolRunner.username()
        let created = try t.run("xmpp-register", [t.jid(user), "--json"] + t.serverArgs, password: "secret-1")
        XCTAssertEqual(created.status, 0, created.stderr)
        let doc = try XCTUnwrap(try ToolRunner.json(created) as? [String: Any])
        XCTAssertEqual(doc["status"] as? String, "created")
        XCTAssertEqual(doc["jid"] as? String, t.jid(user))

        let again = try t.run("xmpp-register", [t.jid(user)] + t.serverArgs, password: "secret-2")
        XCTAssertEqual(again.status, 5, again.stderr)
        XCTAssertTrue(again.stderr.contains("already exists"), again.stderr)
    }

    func testFormShowsFieldsAsTextAndJSON() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let text = try t.run("xmpp-register", ["form", t.server.domain] + t.serverArgs)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("username"), text.stdout)
        XCTAssertTrue(text.stdout.contains("password"), text.stdout)
        let json = try t.run("xmpp-register", ["form", t.server.domain, "--json"] + t.serverArgs)
        XCTAssertEqual(json.status, 0, json.stderr)
        let doc = try XCTUnwrap(try ToolRunner.json(json) as? [String: Any])
        let fields = try XCTUnwrap(doc["fields"] as? [[String: Any]])
        XCTAssertTrue(fields.contains { $0["name"] as? String == "username" })
        XCTAssertEqual(doc["captcha"] as? Bool, false)
    }

    func testPasswdChangesPasswordAndRefreshesSession() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (jid, old) = try t.makeAccount("pw", login: true)
        if !t.server.has("scram-session") { return try passwdKeepsThePasswordCommand(t, jid, old) }
        let before = try String(contentsOfFile: t.home + "/config/xmpp-tools/sessions/" + jid, encoding: .utf8)
        let changed = try t.run("xmpp-register", ["passwd"], password: "new-secret")
        XCTAssertEqual(changed.status, 0, changed.stderr)
        let after = try String(contentsOfFile: t.home + "/config/xmpp-tools/sessions/" + jid, encoding: .utf8)
        XCTAssertNotEqual(before, after, "session keys must be re-derived after a password change")
        // The cached session still works, the old password does not, the new one does.
        XCTAssertEqual(try t.run("xmpp-login", ["status"]).status, 0)
        let other = try ToolRunner(server: t.server)
        XCTAssertEqual(try other.run("xmpp-login", [jid] + t.serverArgs, password: old).status, 3)
        XCTAssertEqual(try other.run("xmpp-login", [jid] + t.serverArgs, password: "new-secret").status, 0)
    }

    /// Where the session is a password command (no SCRAM keys can be cached), passwd keeps the
    /// command and says it must print the new password; it did fail with exit 3 after changing it.
    private func passwdKeepsThePasswordCommand(_ t: ToolRunner, _ jid: String, _ old: String) throws {
        let changed = try t.run("xmpp-register", ["passwd", "--json"], password: "new-secret")
        XCTAssertEqual(changed.status, 0, changed.stderr)
        let doc = try XCTUnwrap(try ToolRunner.json(changed) as? [String: Any])
        XCTAssertEqual(doc["session_refreshed"] as? Bool, false)
        let command = try XCTUnwrap(doc["password_command"] as? String)
        let stale = try t.run("xmpp-login", ["status"])
        XCTAssertEqual(stale.status, 3, "the command still prints the old password: \(stale.stderr)")
        XCTAssertTrue(stale.stderr.contains(command), stale.stderr)
        XCTAssertEqual(try t.passwordCommand(jid, "new-secret"), command, "the same file, now with the new password")
        XCTAssertEqual(try t.run("xmpp-login", ["status"]).status, 0)
        let other = try ToolRunner(server: t.server)
        XCTAssertEqual(try other.login(jid, old, t.serverArgs).status, 3)
    }

    func testDeleteNeedsYesThenRemovesAccountAndSession() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (jid, password) = try t.makeAccount("del", login: true)
        let refused = try t.run("xmpp-register", ["delete"])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--yes"), refused.stderr)
        let deleted = try t.run("xmpp-register", ["delete", "--yes"])
        XCTAssertEqual(deleted.status, 0, deleted.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: t.home + "/config/xmpp-tools/sessions/" + jid))
        let login = try ToolRunner(server: t.server).run("xmpp-login", [jid] + t.serverArgs, password: password)
        XCTAssertEqual(login.status, 3, "a deleted account must not log in: \(login.stderr)")
    }

    func testMalformedJIDIsBadInput() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let r = try t.run("xmpp-register", ["bad user@\(t.server.domain)"] + t.serverArgs, password: "x")
        XCTAssertEqual(r.status, 9, r.stderr)
        XCTAssertTrue(r.stderr.contains("bad user@"), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "one line: \(r.stderr)")
    }

    func testPasswordNeverInTraceOrFiles() throws {
        try TestServer.require().requireLoginAccounts()
        let t = try ToolRunner(server: try TestServer.require())
        let user = ToolRunner.username("tr")
        let secret = "Tr4ce-" + UUID().uuidString
        let r = try t.run("xmpp-register", [t.jid(user), "--login", "--trace"] + t.serverArgs, password: secret)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("jabber:iq:register"), "trace shows the XML")
        XCTAssertFalse(r.stderr.contains(secret))
        XCTAssertFalse(r.stdout.contains(secret))
        let status = try t.run("xmpp-login", ["status", "--trace"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stderr.contains("[redacted]"), "SASL payloads are redacted")
        let files = FileManager.default.enumerator(atPath: t.home)
        while let f = files?.nextObject() as? String {
            let path = t.home + "/" + f
            if let data = FileManager.default.contents(atPath: path) {
                XCTAssertFalse(String(decoding: data, as: UTF8.self).contains(secret), "password found in \(f)")
            }
        }
    }
}

/// `xmpp-register JID --nickname --fullname --email --avatar`: register → log in → vCard → avatar.
final class RegisterProfileEndToEndTests: XCTestCase {
    func testProfileFlagsSetVCardAndAvatar() throws {
        try TestServer.require().requireLoginAccounts()
        let t = try ToolRunner(server: try TestServer.require())
        let image = t.home + "/me.png"
        try VCardEndToEndTests.png.write(to: URL(fileURLWithPath: image))
        let user = ToolRunner.username("pf")
        let r = try t.run("xmpp-register", [t.jid(user), "--nickname", "Ally", "--fullname", "Alice Liddell",
                                            "--email", "ally@example.org", "--avatar", image, "--login", "--json"] + t.serverArgs,
                          password: "profile-pw")
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try XCTUnwrap(try ToolRunner.json(r) as? [String: Any])
        XCTAssertEqual(doc["profile"] as? [String], ["nickname", "fullname", "email", "avatar"])

        // Another account reads the card and the avatar.
        let reader = try ToolRunner(server: t.server)
        _ = try reader.makeAccount("pr", login: true)
        let card = try reader.run("xmpp-vcard", ["get", t.jid(user), "--json"])
        XCTAssertEqual(card.status, 0, card.stderr)
        let c = try XCTUnwrap(try ToolRunner.json(card) as? [String: Any])
        XCTAssertEqual(c["nickname"] as? String, "Ally")
        XCTAssertEqual(c["fullname"] as? String, "Alice Liddell")
        XCTAssertEqual((c["emails"] as? [[String: Any]])?.first?["address"] as? String, "ally@example.org")
        let expected = try VCardEndToEndTests.resizedPhoto(t)
        let info = try reader.run("xmpp-avatar", ["info", t.jid(user), "--json"])
        XCTAssertEqual(info.status, 0, info.stderr)
        let i = try XCTUnwrap(try ToolRunner.json(info) as? [String: Any])
        XCTAssertEqual(i["hash"] as? String, expected.sha1)
        XCTAssertEqual(i["source"] as? String, "pep")
    }

    func testBadAvatarFailsBeforeTheAccountExists() throws {
        try TestServer.require().require("register-unthrottled", "it registers fresh accounts")
        let t = try ToolRunner(server: try TestServer.require())
        let image = t.home + "/bad.png"
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: image))
        let user = ToolRunner.username("ba")
        let r = try t.run("xmpp-register", [t.jid(user), "--avatar", image] + t.serverArgs, password: "pw")
        XCTAssertEqual(r.status, 9, r.stderr)
        // The account was not created: registering it now succeeds.
        XCTAssertEqual(try t.run("xmpp-register", [t.jid(user)] + t.serverArgs, password: "pw").status, 0)
    }
}
