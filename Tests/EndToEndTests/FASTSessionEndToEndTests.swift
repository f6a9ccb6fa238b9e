import Foundation
import XCTest

/// FAST sessions (XEP-0484) over SASL2 and Bind 2 (XEP-0388, XEP-0386) on servers that offer them
/// (XT_FEATURES fast: Prosody 13 with prosody-modules, ejabberd 24.12).
final class FASTSessionEndToEndTests: XCTestCase {
    private func fastAccount(_ prefix: String) throws -> (ToolRunner, String, String) {
        let (t, jid, password) = try ToolRunner.withAccount(prefix) { try $0.require("fast", "FAST tokens") }
        let login = try t.run("xmpp-login", [jid, "--json"] + t.serverArgs, password: password)
        XCTAssertEqual(login.status, 0, login.stderr)
        let doc = try XCTUnwrap(try ToolRunner.json(login) as? [String: Any])
        XCTAssertEqual(doc["session_kind"] as? String, "fast", "\(doc)")
        return (t, jid, password)
    }

    private func sessionPath(_ t: ToolRunner, _ jid: String) -> String { t.home + "/config/xmpp-tools/sessions/" + jid }

    /// `xmpp-login status` for `jid` from another machine (a home of its own) that holds
    /// `session` as its session file, as a copy taken from this one would be.
    private func statusElsewhere(_ t: ToolRunner, _ jid: String, holding session: Data) throws -> RunResult {
        let other = try ToolRunner(server: t.server)
        let path = sessionPath(other, jid)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: session, attributes: [.posixPermissions: 0o600]), path)
        return try other.run("xmpp-login", ["status", "-a", jid] + t.serverArgs)
    }

    func testLoginKeepsOnlyATokenAndStatusUsesIt() throws {
        let (t, jid, password) = try fastAccount("fa")
        let session = try String(contentsOfFile: sessionPath(t, jid), encoding: .utf8)
        XCTAssertTrue(session.contains("\"kind\": \"fast\""), session)
        for secret in [password, "client_key", "server_key", "salt"] { XCTAssertFalse(session.contains(secret), secret) }
        let attrs = try FileManager.default.attributesOfItem(atPath: sessionPath(t, jid))
        XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o600)

        let status = try t.run("xmpp-login", ["status", "--json"])
        XCTAssertEqual(status.status, 0, status.stderr)
        let s = try XCTUnwrap(try ToolRunner.json(status) as? [String: Any])
        XCTAssertEqual(s["session_kind"] as? String, "fast")
        XCTAssertTrue((s["mechanism"] as? String ?? "").hasPrefix("HT-SHA-256-"), "\(s)")
        // Bound by Bind 2 without a tag: the resource is the server's random choice.
        let bound = s["bound_jid"] as? String ?? ""
        XCTAssertTrue(bound.hasPrefix(jid + "/") && bound.count > jid.count + 1, "\(s)")
        let text = try t.run("xmpp-login", ["status"])
        XCTAssertTrue(text.stdout.contains("session:    fast\n"), text.stdout)
        // Other tools use the token too.
        XCTAssertEqual(try t.run("xmpp-roster", ["list"]).status, 0)
    }

    func testScramKeysKindOnAFASTServer() throws {
        let (t, _, _) = try ToolRunner.withAccount("fk", session: "scram-keys") { try $0.require("fast", "FAST tokens") }
        let s = try XCTUnwrap(try ToolRunner.json(try t.run("xmpp-login", ["status", "--json"])) as? [String: Any])
        XCTAssertEqual(s["session_kind"] as? String, "scram-keys")
        XCTAssertTrue((s["mechanism"] as? String ?? "").hasPrefix("SCRAM-"), "\(s)")
    }

    /// Logout invalidates the token on the server: a copy of the session file taken just before
    /// cannot authenticate afterwards (exit 3), and a fresh login recovers.
    func testLogoutInvalidatesTheTokenOnTheServer() throws {
        let (t, jid, password) = try fastAccount("fo")
        // Taken before a use rotates the token: Prosody 13 keeps the replaced token valid until
        // the new one is used, so logout must end it too.
        let atLogin = try Data(contentsOf: URL(fileURLWithPath: sessionPath(t, jid)))
        XCTAssertEqual(try t.run("xmpp-login", ["status"]).status, 0)
        let copy = try Data(contentsOf: URL(fileURLWithPath: sessionPath(t, jid)))
        let logout = try t.run("xmpp-login", ["logout"])
        XCTAssertEqual(logout.status, 0, logout.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sessionPath(t, jid)))
        let early = try statusElsewhere(t, jid, holding: atLogin)
        XCTAssertEqual(early.status, 3, "a copy taken at log-in still authenticates after logout on \(t.server.kind): \(early.stderr)")
        FileManager.default.createFile(atPath: sessionPath(t, jid), contents: copy, attributes: [.posixPermissions: 0o600])
        let replay = try t.run("xmpp-login", ["status", "-a", jid] + t.serverArgs)
        XCTAssertEqual(replay.status, 3, replay.stderr)
        XCTAssertTrue(replay.stderr.contains("rejected the cached session"), replay.stderr)
        let again = try t.run("xmpp-login", [jid, "-q"] + t.serverArgs, password: password)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try t.run("xmpp-login", ["status", "-q"]).status, 0)
    }

    /// A password change ends the FAST session it was made from: a copy of the session file
    /// taken at log-in (before the token was rotated by use) and one taken just before passwd both
    /// fail afterwards (exit 3), on every server, while the tool's own refreshed session works.
    func testPasswdInvalidatesEveryTokenOfTheSession() throws {
        let (t, jid, _) = try fastAccount("fp")
        let atLogin = try Data(contentsOf: URL(fileURLWithPath: sessionPath(t, jid)))
        XCTAssertEqual(try t.run("xmpp-login", ["status"]).status, 0)  // rotates the token where the server does
        let beforePasswd = try Data(contentsOf: URL(fileURLWithPath: sessionPath(t, jid)))
        let newPassword = "pw2-" + UUID().uuidString
        let passwd = try t.run("xmpp-register", ["passwd", "--password-stdin"], stdin: newPassword + "\n")
        XCTAssertEqual(passwd.status, 0, passwd.stderr)
        XCTAssertEqual(try t.run("xmpp-login", ["status", "-q"]).status, 0, "the tool's own session was refreshed")
        let refreshed = try Data(contentsOf: URL(fileURLWithPath: sessionPath(t, jid)))
        for (name, copy) in [("taken at log-in", atLogin), ("taken before passwd", beforePasswd)] {
            let replay = try statusElsewhere(t, jid, holding: copy)
            XCTAssertEqual(replay.status, 3, "\(name) still authenticates on \(t.server.kind): \(replay.stderr)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: sessionPath(t, jid))), refreshed)
    }

    /// Whether the server itself ends FAST tokens issued before a password change, as passwd's
    /// man page says: Prosody 13 does (mod_sasl2_fast compares the token's issue time with the
    /// account's password_updated, to the second), ejabberd 24.12 does not.
    private func serverEndsTokensAtPasswordChange(_ server: TestServer) -> Bool { server.kind.hasPrefix("prosody") }

    /// The FAST session of the same account on another machine (its own token): ended by the
    /// server on Prosody 13, kept on ejabberd 24.12. If that changes, this fails and the man page must too.
    func testAnotherMachinesFASTSessionAfterPasswdIsAsTheManPageSays() throws {
        let (t, jid, password) = try fastAccount("fm")
        let elsewhere = try ToolRunner(server: t.server)
        XCTAssertEqual(try elsewhere.run("xmpp-login", [jid, "-q"] + t.serverArgs, password: password).status, 0)
        sleep(2)  // the server compares whole seconds: the token must be older than the change
        let passwd = try t.run("xmpp-register", ["passwd", "--password-stdin"], stdin: "pw3-" + UUID().uuidString + "\n")
        XCTAssertEqual(passwd.status, 0, passwd.stderr)
        let status = try elsewhere.run("xmpp-login", ["status", "-q"])
        XCTAssertEqual(status.status, serverEndsTokensAtPasswordChange(t.server) ? 3 : 0,
                       "the other machine's FAST session on \(t.server.kind) is not as passwd's man page says: \(status.stderr)")
    }

    /// The same for passwd --admin: the account's FAST session, as the man page says.
    func testTheAccountsFASTSessionAfterAdminPasswdIsAsTheManPageSays() throws {
        let admin = try AdminServer.require()
        try admin.server.require("fast", "FAST tokens")
        let a = try admin.adminRunner()
        let jid = ToolRunner.username("fadm") + "@" + admin.server.domain
        XCTAssertEqual(try a.run("xmpp-register", [jid, "--admin"], password: "pw1-fadm").status, 0)
        let user = try ToolRunner(server: admin.server)
        let login = try user.run("xmpp-login", [jid, "--json"] + user.serverArgs, password: "pw1-fadm")
        XCTAssertEqual(login.status, 0, login.stderr)
        XCTAssertEqual((try ToolRunner.json(login) as? [String: Any])?["session_kind"] as? String, "fast")
        sleep(2)  // the server compares whole seconds
        XCTAssertEqual(try a.run("xmpp-register", ["passwd", jid, "--admin"], password: "pw2-fadm").status, 0)
        let status = try user.run("xmpp-login", ["status", "-q"])
        XCTAssertEqual(status.status, serverEndsTokensAtPasswordChange(admin.server) ? 3 : 0,
                       "the FAST session on \(admin.server.kind) is not as passwd's man page says: \(status.stderr)")
    }

    /// A wrong token is exit 3 and a fresh login recovers.
    func testWrongTokenExitsThreeAndLoginRecovers() throws {
        let (t, jid, password) = try fastAccount("fw")
        let path = sessionPath(t, jid)
        let session = try String(contentsOfFile: path, encoding: .utf8)
        guard let range = session.range(of: "\"token\": \"") else { return XCTFail(session) }
        var broken = session
        broken.insert(contentsOf: "x", at: range.upperBound)
        try broken.write(toFile: path, atomically: true, encoding: .utf8)
        _ = chmod(path, 0o600)
        let r = try t.run("xmpp-login", ["status"])
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertEqual(try t.run("xmpp-login", [jid, "-q"] + t.serverArgs, password: password).status, 0)
        XCTAssertEqual(try t.run("xmpp-login", ["status", "-q"]).status, 0)
    }

    /// Two tools of one account at once, round after round, while the server rotates the token
    /// on every use (test-server's XT_FAST_MIN_TTL=0 on Prosody 13): neither locks the other out.
    /// Without the per-account session lock every round after the first race failed (Prosody 13).
    func testTwoToolsAtOnceNeverLockEachOtherOut() throws {
        let (t, _, _) = try fastAccount("fc")
        let script = "for i in 1 2 3 4 5 6; do \"$0\" status -q >/dev/null & a=$!; \"$0\" status -q >/dev/null & b=$!; "
            + "wait $a || exit 1; wait $b || exit 1; done"
        let r = try Shell.run(["/bin/sh", "-c", script, Paths.binaries + "/xmpp-login"], environment: t.environment, timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try t.run("xmpp-login", ["status", "-q"]).status, 0)
    }

    /// --session fast on a server without FAST refuses before sending the password.
    func testSessionFastRefusedWithoutFAST() throws {
        let (t, jid, password) = try ToolRunner.withAccount("fn") { server in
            guard !server.has("fast") else { throw XCTSkip("\(server.kind) offers FAST") }
        }
        let r = try t.run("xmpp-login", [jid, "--session", "fast"] + t.serverArgs, password: password)
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("offers no FAST"), r.stderr)
    }
}
