import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Registration as servers are run ("The servers people run", part 6): closed, by invitation,
/// throttled. Each is said in plain words with the way forward and its own exit status (10 stop,
/// 11 later); batch stops at a closed server and waits out a throttling one.
final class RegistrationPolicyEndToEndTests: XCTestCase {
    private func register(_ t: ToolRunner, _ user: String) throws -> RunResult {
        try t.run("xmpp-register", [t.jid(user)] + t.serverArgs, password: "pw-" + UUID().uuidString)
    }

    private func csv(_ t: ToolRunner, rows: Int) throws -> String {
        let path = t.home + "/accounts.csv"
        let lines = ["username,password"] + (0..<rows).map { "\(ToolRunner.username("bt"))\($0),pw-\(UUID().uuidString)" }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Closed: one clear stop, the administrator named, and a batch that stops at once with
    /// every row left to do, not 30 identical failures.
    private func checkClosed(_ kind: String, _ options: [String], says words: String) throws {
        let server = try TestServer.startPrivate(kind, options)
        defer { server.stop() }
        let t = try ToolRunner(server: server)
        let single = try register(t, ToolRunner.username("cl"))
        XCTAssertEqual(single.status, 10, single.stderr)
        XCTAssertTrue(single.stderr.contains(words), single.stderr)

        let input = try csv(t, rows: 30)
        let report = t.home + "/report.csv"
        let batch = try t.run("xmpp-register", ["batch", input, "--domain", server.domain, "--report", report] + t.serverArgs,
                              timeout: 60)
        XCTAssertEqual(batch.status, 10, batch.stderr)
        XCTAssertTrue(batch.stderr.contains(words), batch.stderr)
        XCTAssertTrue(batch.stderr.contains("30 not done"), "every row stays to do: \(batch.stderr)")
        XCTAssertFalse(batch.stderr.contains("failed"), batch.stderr)
    }

    func testProsodyWithRegistrationClosed() throws {
        // allow_registration = false (Prosody's default): the form request is service-unavailable.
        try checkClosed("prosody", ["--registration", "closed"], says: "ask the server's administrator to create the account")
    }

    func testEjabberdWithRegistrationClosed() throws {
        // register: deny: the form comes, every submission is forbidden.
        try checkClosed("ejabberd", ["--registration", "closed"], says: "does not let this client create accounts")
    }

    func testProsodyByInvitationOnly() throws {
        try checkClosed("prosody", ["--registration", "invite"], says: "creates accounts by invitation only")
    }

    /// ejabberd's default registration_timeout (600 s) and Prosody's throttle: the first account
    /// is created, the second is exit 11 with "wait"; a batch backs off and retries instead of
    /// failing the row (stopped here by SIGTERM, the rows left to --resume).
    private func checkThrottled(_ kind: String) throws {
        let server = try TestServer.startPrivate(kind, ["--registration", "throttled"])
        defer { server.stop() }
        let t = try ToolRunner(server: server)
        XCTAssertEqual(try register(t, ToolRunner.username("th")).status, 0)
        let second = try register(t, ToolRunner.username("th"))
        XCTAssertEqual(second.status, 11, second.stderr)
        XCTAssertTrue(second.stderr.contains("limits how often accounts can be created") && second.stderr.contains("try again later"),
                      second.stderr)

        let input = try csv(t, rows: 3)
        let report = t.home + "/report.csv"
        let child = try BatchChildProcess([Paths.binaries + "/xmpp-register", "batch", input, "--domain", server.domain,
                                           "--report", report, "--jobs", "1"] + t.serverArgs,
                                          environment: t.environment, captureStdout: false)
        sleep(4)
        XCTAssertTrue(child.isRunning, "a throttled batch waits and retries: \(child.stderr)")
        child.kill(SIGTERM)
        XCTAssertEqual(try child.wait(timeout: 30), 143, child.stderr)
        let written = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        XCTAssertFalse(written.contains(",failed,"), "throttled rows are not failures: \(written)")
        XCTAssertTrue(child.stderr.contains("--resume"), child.stderr)
    }

    func testEjabberdThrottlesTheSecondAccountFromOneAddress() throws {
        try checkThrottled("ejabberd")
    }

    func testProsodyThrottlesTheSecondAccountFromOneAddress() throws {
        try checkThrottled("prosody")
    }
}
