import Foundation
import XCTest
import Glibc

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
    /// every row left to do, not 30 identical failures, naming --admin and --invite.
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
        // The batch's own ways forward, not a single account's (issue 27 item 4).
        XCTAssertTrue(batch.stderr.contains("run the same batch again") && batch.stderr.contains("--admin")
                      && batch.stderr.contains("--invite"), batch.stderr)
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

    /// Issue 27 item 4: a school's first run without --admin on an invitation-only Prosody stops
    /// with 10 and names --admin and --invite; the corrected run with --admin is not blocked by
    /// the journal of the first (the server created nothing, so no password was worth keeping),
    /// and every account then logs in with the password its report gives.
    func testBatchOnAnInvitationOnlyServerNamesAdminAndTheCorrectedRunIsNotBlocked() throws {
        let (server, bossPassword) = try Self.privateProsody13WithBoss(["--registration", "invite", "--admin", "boss"])
        defer { server.stop() }
        let t = try ToolRunner(server: server)
        let input = t.home + "/pupils.csv"
        let tag = String(ToolRunner.username("").prefix(4))
        let users = (0..<12).map { "pupil\($0)" + tag }
        try Data((["username"] + users).joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: input))
        let report = t.home + "/pw.csv"
        let first = try t.run("xmpp-register", ["batch", input, "--domain", server.domain, "--generate-passwords", "--report", report]
                                  + t.serverArgs, timeout: 60)
        XCTAssertEqual(first.status, 10, first.stderr)
        XCTAssertTrue(first.stderr.contains("--admin") && first.stderr.contains("--invite"), first.stderr)
        XCTAssertTrue(first.stderr.contains("no account was created, so that run takes this one's journal over"), first.stderr)
        XCTAssertFalse(first.stderr.contains("--resume"), "resuming would meet the same refusal: \(first.stderr)")

        XCTAssertEqual(try t.run("xmpp-login", ["boss@" + server.domain] + t.serverArgs, password: bossPassword).status, 0)
        let corrected = try t.run("xmpp-register", ["-a", "boss@" + server.domain, "batch", input, "--domain", server.domain,
                                                    "--generate-passwords", "--report", report, "--admin"] + t.serverArgs, timeout: 120)
        XCTAssertEqual(corrected.status, 0, corrected.stderr)
        XCTAssertTrue(corrected.stderr.contains("replacing the journal of an unfinished run (--admin: this run has it, the journal's run did not)"),
                      corrected.stderr)
        let rows = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\r\n").dropFirst()
        XCTAssertEqual(rows.count, 12)
        for row in rows.prefix(2) {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(fields[2], "created", String(row))
            let password = try XCTUnwrap(fields.first { $0.count == 24 }, String(row))
            XCTAssertEqual(try ToolRunner(server: server).run("xmpp-login", [fields[1]] + t.serverArgs, password: password).status, 0,
                           "the report's password is the account's")
        }
    }

    /// A run in-band that the server acted on (stopped part-way here by SIGTERM) is taken over
    /// by --resume with --admin: no row twice, every account with the password its report gives.
    func testAnInBandRunIsResumedAsTheAdministrator() throws {
        let (server, bossPassword) = try Self.privateProsody13WithBoss(["--admin", "boss"])
        defer { server.stop() }
        let t = try ToolRunner(server: server)
        let input = t.home + "/many.csv", report = t.home + "/pw.csv"
        let tag = String(ToolRunner.username("").prefix(4))
        try Data((["username"] + (0..<600).map { "m\(tag)\($0)" }).joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: input))
        let args = ["batch", input, "--domain", server.domain, "--generate-passwords", "--report", report, "--jobs", "1", "--window", "1"]
        let child = try BatchChildProcess([Paths.binaries + "/xmpp-register"] + args + t.serverArgs, environment: t.environment,
                                          captureStdout: false)
        usleep(1_500_000)
        child.kill(SIGTERM)
        XCTAssertEqual(try child.wait(timeout: 30), 143, "the in-band run is stopped part-way: \(child.stderr)")

        XCTAssertEqual(try t.run("xmpp-login", ["boss@" + server.domain] + t.serverArgs, password: bossPassword).status, 0)
        let admin = ["-a", "boss@" + server.domain] + args + ["--admin"] + t.serverArgs
        let refused = try t.run("xmpp-register", admin, timeout: 60)
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--admin: this run has it, the journal's run did not")
                      && refused.stderr.contains("continue it with --resume"), refused.stderr)
        let resumed = try t.run("xmpp-register", admin + ["--resume"], timeout: 180)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertTrue(resumed.stderr.contains("resuming the journal's run of this CSV (--admin: this run has it"), resumed.stderr)
        XCTAssertTrue(resumed.stderr.contains("600 rows: 600 created"), resumed.stderr)
        let rows = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\r\n").dropFirst()
        for row in [rows.first, rows.last].compactMap({ $0 }) {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(try ToolRunner(server: server).run("xmpp-login", [fields[1]] + t.serverArgs, password: fields[5]).status, 0,
                           "the report's password is the account's: \(row)")
        }
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

    /// A private Prosody 13 started with `options` and an administrator `boss` (its password
    /// returned).
    private static func privateProsody13WithBoss(_ options: [String]) throws -> (TestServer, String) {
        let server = try TestServer.startPrivate("prosody13", options)
        let bossPassword = "boss-" + UUID().uuidString
        let ctl = try Shell.run([Paths.root + "/scripts/test-server", "ctl", server.directory, "register", "boss", server.domain, bossPassword],
                                timeout: 60)
        guard ctl.status == 0 else {
            server.stop()
            throw NSError(domain: "RegistrationPolicyEndToEndTests", code: Int(ctl.status),
                          userInfo: [NSLocalizedDescriptionKey: "cannot register the administrator: \(ctl.stderr)"])
        }
        return (server, bossPassword)
    }
}
