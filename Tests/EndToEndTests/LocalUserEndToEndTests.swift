import Foundation
import XCTest

/// Another user of the same machine (issue 26): a file they planted is refused with its path and
/// owner, a symlink where a secret goes is not followed, and the tools dump no core. The tests
/// run as root; "another user" is a uid no account has, given with chown.
final class LocalUserEndToEndTests: XCTestCase {
    private let stranger: uid_t = 54321

    /// `xmpp-login JID` with the password from a password command: a session file is written on
    /// every server, those that store plain passwords (jabberd2, ejabberd's defaults) included.
    private func logIn(_ t: ToolRunner, _ jid: String, _ password: String) throws -> RunResult {
        try t.run("xmpp-login", [jid, "--password-command", try t.passwordCommand(jid, password)] + t.serverArgs)
    }

    func testAPlantedReportIsRefusedBeforeAnyAccountIsCreated() throws {
        let server = try TestServer.shared()
        let t = try ToolRunner(server: server)
        let user = ToolRunner.username("planted")
        let input = t.home + "/in.csv"
        try Data("jid\n\(t.jid(user))\n".utf8).write(to: URL(fileURLWithPath: input))
        let report = t.home + "/report.csv"
        try Data("line,jid,status,error,profile,password,note\r\n2,\(t.jid(user)),created,,,chosen-by-mallory,\r\n".utf8)
            .write(to: URL(fileURLWithPath: report))
        XCTAssertEqual(chmod(report, 0o600), 0)
        XCTAssertEqual(chown(report, stranger, gid_t(stranger)), 0)
        let r = try t.run("xmpp-register", ["batch", input, "--generate-passwords", "--report", report] + t.serverArgs)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains(report) && r.stderr.contains("owned by uid 54321"), r.stderr)
        // Nothing was created: logging in with the planted password fails, as the account does not exist.
        let login = try t.run("xmpp-login", [t.jid(user)] + t.serverArgs, password: "chosen-by-mallory")
        XCTAssertNotEqual(login.status, 0, login.stdout)
    }

    func testALogInDoesNotWriteThroughASymlinkPlantedInSessions() throws {
        let (t, jid, password) = try ToolRunner.withAccount("symlink")
        let sessions = t.home + "/config/xmpp-tools/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(t.home + "/config/xmpp-tools", 0o700), 0)
        XCTAssertEqual(chmod(sessions, 0o700), 0)
        let victim = t.home + "/victim"
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        XCTAssertEqual(symlink(victim, sessions + "/" + jid), 0)
        let r = try logIn(t, jid, password)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains(sessions + "/" + jid) && r.stderr.contains("symbolic link"), r.stderr)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")
    }

    func testAConfigDirectoryAnotherUserMadeIsRefusedNamingItsOwner() throws {
        let (t, jid, password) = try ToolRunner.withAccount("foreigndir")
        let config = t.home + "/config/xmpp-tools"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        XCTAssertEqual(chown(config, stranger, gid_t(stranger)), 0)
        let r = try logIn(t, jid, password)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains(config) && r.stderr.contains("owned by uid 54321"), r.stderr)
    }

    func testTheToolsDumpNoCoreAndThePasswordCommandInheritsThat() throws {
        let (t, jid, password) = try ToolRunner.withAccount("core")
        let file = t.home + "/pw.txt"
        try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let limit = t.home + "/core-limit"
        // Started with core dumps allowed (the test machine's default is 0), so only the tool can turn them off.
        let argv = ["/bin/sh", "-c", "ulimit -S -c 4096 && exec \"$0\" \"$@\"", Paths.binaries + "/xmpp-login",
                    jid, "--password-command", "ulimit -c > '\(limit)'; cat '\(file)'"] + t.serverArgs
        let r = try Shell.run(argv, environment: t.environment, timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try String(contentsOfFile: limit, encoding: .utf8), "0\n")
        let control = try Shell.run(["/bin/sh", "-c", "ulimit -S -c 4096 && ulimit -c"], timeout: 10)
        XCTAssertEqual(control.stdout, "4096\n", "the soft limit could be raised, so a 0 above is the tool's doing")
    }
}
