import Foundation
import XCTest

/// One session model for every server ("The servers people run", part 4): cached SCRAM keys where
/// the salt is stable, a credential helper (`--password-command`) where it is not, and a password
/// for one run where no session is wanted. The password is never written anywhere.
final class CredentialHelperEndToEndTests: XCTestCase {
    /// Every file under `dir`, concatenated, for "the password is not in there" checks.
    private func everything(under dir: String) -> String {
        guard let walker = FileManager.default.enumerator(atPath: dir) else { return "" }
        var text = ""
        for case let path as String in walker {
            if let data = FileManager.default.contents(atPath: dir + "/" + path) { text += String(decoding: data, as: UTF8.self) }
        }
        return text
    }

    private func writePasswordFile(_ t: ToolRunner, _ password: String) throws -> String {
        let path = t.home + "/pw.txt"
        try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func statusDocument(_ t: ToolRunner, _ args: [String] = []) throws -> [String: Any] {
        let status = try t.run("xmpp-login", ["status", "--json"] + args)
        XCTAssertEqual(status.status, 0, status.stderr)
        return try XCTUnwrap(try ToolRunner.json(status) as? [String: Any])
    }

    /// ejabberd 23.01 as shipped stores plain-text passwords, so SCRAM keys cannot be cached: the
    /// refusal names the helper option, and with it login, roster, vCard and avatar all work.
    func testEjabberdWithPlainPasswordsWorksThroughAPasswordCommand() throws {
        let server = try TestServer.startPrivate("ejabberd", ["--plain-passwords"])
        defer { server.stop() }
        let t = try ToolRunner(server: server)
        let (jid, password) = try t.makeAccount("ph")

        let refused = try t.run("xmpp-login", [jid] + t.serverArgs, password: password)
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--password-command"), "the refusal names the way forward: \(refused.stderr)")

        let file = try writePasswordFile(t, password)
        let command = "cat '\(file)'"
        let login = try t.run("xmpp-login", [jid, "--json", "--password-command", command] + t.serverArgs)
        XCTAssertEqual(login.status, 0, login.stderr)
        XCTAssertEqual((try ToolRunner.json(login) as? [String: Any])?["session_kind"] as? String, "password-command")
        let status = try statusDocument(t)
        XCTAssertEqual(status["session_kind"] as? String, "password-command")
        XCTAssertEqual(status["password_command"] as? String, command)

        XCTAssertEqual(try t.run("xmpp-roster", ["add", "friend", "--no-subscribe"]).status, 0)
        let roster = try t.run("xmpp-roster", ["list", "--json"])
        XCTAssertEqual(roster.status, 0, roster.stderr)
        XCTAssertTrue(roster.stdout.contains("friend@" + server.domain), roster.stdout)
        let set = try t.run("xmpp-vcard", ["set", "--nickname", "Helper"])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(try t.run("xmpp-vcard", ["get", "--field", "nickname"]).stdout, "Helper\n")
        let image = t.home + "/a.png"
        try TestPNG.rgb(width: 120, height: 80).write(to: URL(fileURLWithPath: image))
        let avatar = try t.run("xmpp-avatar", ["set", image])
        XCTAssertEqual(avatar.status, 0, avatar.stderr)
        let got = try t.run("xmpp-avatar", ["get", "-o", t.home + "/got.png"])
        XCTAssertEqual(got.status, 0, got.stderr)

        let traced = try t.run("xmpp-roster", ["list", "--trace"])
        XCTAssertEqual(traced.status, 0, traced.stderr)
        XCTAssertFalse(traced.stderr.contains(password), "--trace shows the password")
        XCTAssertFalse(traced.stderr.contains(Data(password.utf8).base64EncodedString()), "--trace shows the password")
        try FileManager.default.removeItem(atPath: file)
        XCTAssertFalse(everything(under: t.home).contains(password), "the password is written under the home")

        // The helper failing later is exit 3 naming the command.
        let broken = try t.run("xmpp-roster", ["list"])
        XCTAssertEqual(broken.status, 3, broken.stderr)
        XCTAssertTrue(broken.stderr.contains("the password command '\(command)' failed (exit status 1)"), broken.stderr)
    }

    /// Where the salt is stable the keys are the better session: the command is not kept.
    func testAPasswordCommandOnAServerWithStableSaltsKeepsSCRAMKeys() throws {
        let server = try TestServer.require()
        try server.require("scram-session", "the server's SCRAM salt is stable")
        let t = try ToolRunner(server: server)
        let (jid, password) = try t.makeAccount("pk")
        let file = try writePasswordFile(t, password)
        let login = try t.run("xmpp-login", [jid, "--password-command", "cat '\(file)'"] + t.serverArgs)
        XCTAssertEqual(login.status, 0, login.stderr)
        try FileManager.default.removeItem(atPath: file)
        let status = try statusDocument(t)
        XCTAssertEqual(status["session_kind"] as? String, "scram-keys")
        XCTAssertTrue(status["password_command"] is NSNull)
    }

    func testAPasswordCommandThatFailsIsExitThreeNamingIt() throws {
        let server = try TestServer.require()
        let t = try ToolRunner(server: server)
        let (jid, _) = try t.makeAccount("pf")
        let cases: [(String, [String], String)] = [
            ("echo oops >&2; exit 4", [], "the password command 'echo oops >&2; exit 4' failed (exit status 4)"),
            ("printf ''", [], "the password command 'printf ''' printed no password"),
            ("sleep 20", ["--timeout", "1"], "the password command 'sleep 20' did not print a password within 1 s"),
        ]
        for (command, extra, message) in cases {
            let r = try t.run("xmpp-login", [jid, "--password-command", command] + extra + t.serverArgs)
            XCTAssertEqual(r.status, 3, command)
            XCTAssertTrue(r.stderr.contains(message), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: t.home + "/config/xmpp-tools/sessions/" + jid))
        let both = try t.run("xmpp-login", [jid, "--password-command", "true", "--password-stdin"] + t.serverArgs, stdin: "x\n")
        XCTAssertEqual(both.status, 2, both.stderr)
    }

    /// `-a JID` and a password for the run: roster, vCard and avatar work with no session, and
    /// write none.
    func testEveryToolWorksOneShotWithoutASession() throws {
        let server = try TestServer.require()
        let t = try ToolRunner(server: server)
        let (jid, password) = try t.makeAccount("os")
        let file = try writePasswordFile(t, password)
        let account = ["-a", jid] + t.serverArgs

        let add = try t.run("xmpp-roster", ["add", "mate", "--no-subscribe", "--password-file", file] + account)
        XCTAssertEqual(add.status, 0, add.stderr)
        let list = try t.run("xmpp-roster", ["list", "--json"] + account, password: password)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("mate@" + server.domain), list.stdout)
        let set = try t.run("xmpp-vcard", ["set", "--nickname", "OneShot"] + account, env: ["XMPP_PASSWORD": password])
        XCTAssertEqual(set.status, 0, set.stderr)
        let get = try t.run("xmpp-vcard", ["get", "--field", "nickname"] + account, env: ["XMPP_PASSWORD": password])
        XCTAssertEqual(get.stdout, "OneShot\n", get.stderr)
        let image = t.home + "/a.png"
        try TestPNG.rgb(width: 64, height: 64).write(to: URL(fileURLWithPath: image))
        let avatar = try t.run("xmpp-avatar", ["set", image, "--password-file", file] + account)
        XCTAssertEqual(avatar.status, 0, avatar.stderr)
        let info = try t.run("xmpp-avatar", ["info", "--json"] + account, password: password)
        XCTAssertEqual(info.status, 0, info.stderr)

        XCTAssertFalse(FileManager.default.fileExists(atPath: t.home + "/config/xmpp-tools/sessions"), "no session was written")
        let wrong = try t.run("xmpp-roster", ["list"] + account, password: "not-" + password)
        XCTAssertEqual(wrong.status, 3, wrong.stderr)
        let none = try t.run("xmpp-roster", ["list"] + account)
        XCTAssertEqual(none.status, 3)
        XCTAssertTrue(none.stderr.contains("--password-stdin"), "no session names the one-shot options: \(none.stderr)")
        let shared = try t.run("xmpp-vcard", ["import", "-", "--password-stdin"] + account, stdin: "x\n")
        XCTAssertEqual(shared.status, 2, "standard input cannot carry both the card and the password: \(shared.stderr)")
    }
}
