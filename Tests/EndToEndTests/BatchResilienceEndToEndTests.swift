import Foundation
import XCTest

/// A batch killed with SIGKILL and resumed, and a batch whose server restarts under it. Each
/// test starts its own Prosody (scripts/test-server) so restarting it disturbs no other test.
final class BatchResilienceEndToEndTests: XCTestCase {
    private var server: TestServer?

    override func tearDownWithError() throws {
        server?.stop()
    }

    /// A runner (private HOME) and this test's own server.
    private func start() throws -> (ToolRunner, TestServer) {
        let shared = try TestServer.require()  // skips (or fails under CI) where no server can run
        let s = try TestServer.startPrivate("prosody")
        server = s
        return (try ToolRunner(server: shared), s)
    }

    /// A sheet of `rows` new accounts named after `prefix`, and the path its report goes to.
    private func csv(_ t: ToolRunner, rows: Int, prefix: String) throws -> (path: String, report: String) {
        let users = (0..<rows).map { "\(prefix)\($0)" }
        let path = t.home + "/\(prefix).csv"
        let text = "jid,password\n" + users.map { "\(t.jid($0)),pw-\($0)" }.joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (path, t.home + "/\(prefix)-report.csv")
    }

    /// `batch PATH --report REPORT --resume` with `options`, run to the end: it must succeed.
    @discardableResult
    private func resume(_ t: ToolRunner, _ s: TestServer, _ path: String, report: String, _ options: [String] = []) throws -> RunResult {
        let r = try t.run("xmpp-register", ["batch", path, "--report", report, "--resume"] + options + s.serverArgs, timeout: 180)
        XCTAssertEqual(r.status, 0, r.stderr)
        return r
    }

    /// Starts a batch in the background.
    private func launch(_ t: ToolRunner, _ s: TestServer, _ args: [String]) throws -> BatchChildProcess {
        try BatchChildProcess([Paths.binaries + "/xmpp-register", "batch"] + args + s.serverArgs,
                              environment: t.environment, captureStdout: false)
    }

    /// Waits until the server holds at least `count` accounts, or the batch ended.
    private func waitForAccounts(_ count: Int, while process: BatchChildProcess, timeout: TimeInterval = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try XCTUnwrap(server).accountCount() < count {
            XCTAssertTrue(process.isRunning, "the batch ended before \(count) accounts existed: make the CSV bigger")
            guard process.isRunning else { return }
            guard Date() < deadline else { throw XCTSkip("server too slow: fewer than \(count) accounts after \(timeout) s") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    private func reportStatuses(_ path: String) throws -> [String] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\r\n").dropFirst()
        return lines.map { String($0.split(separator: ",", omittingEmptySubsequences: false)[2]) }
    }

    func testKilledRunResumesWithEveryAccountCreatedExactlyOnce() throws {
        let (t, s) = try start()
        let (path, report) = try csv(t, rows: 600, prefix: "kill")
        let process = try launch(t, s, [path, "--report", report, "--jobs", "4"])
        try waitForAccounts(150, while: process)
        process.kill(SIGKILL)
        XCTAssertEqual(try process.wait(), 128 + SIGKILL)
        let createdBeforeKill = try XCTUnwrap(server).accountCount()
        XCTAssertLessThan(createdBeforeKill, 600, "the kill came too late to test anything")
        XCTAssertFalse(FileManager.default.fileExists(atPath: report), "a killed run wrote no report")

        let resumed = try resume(t, s, path, report: report, ["--json"])
        XCTAssertTrue(resumed.stderr.contains("resuming:"), resumed.stderr)
        let thisRun = try BatchEndToEndTests.statuses(resumed)
        XCTAssertTrue(thisRun.values.allSatisfy { $0 == "created" }, "resume reported \(Set(thisRun.values))")
        XCTAssertGreaterThanOrEqual(thisRun.count, 600 - createdBeforeKill, "every row the first run did not finish")
        XCTAssertLessThan(thisRun.count, 600, "rows finished before the kill are not done again")
        XCTAssertEqual(try reportStatuses(report), Array(repeating: "created", count: 600), "complete report, every row created once")
        XCTAssertEqual(try XCTUnwrap(server).accountCount(), 600)

        let again = try t.run("xmpp-register", ["batch", path, "--json"] + s.serverArgs, timeout: 180)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(Set(try BatchEndToEndTests.statuses(again).values), ["exists"])
        XCTAssertEqual(try BatchEndToEndTests.statuses(again).count, 600)
    }

    func testServerRestartMidRunIsSurvived() throws {
        let (t, s) = try start()
        let (path, report) = try csv(t, rows: 600, prefix: "restart")
        let process = try launch(t, s, [path, "--report", report, "--jobs", "4"])
        try waitForAccounts(150, while: process)
        try XCTUnwrap(server).restart()
        XCTAssertEqual(try process.wait(), 0, "the batch must ride out the restart: \(process.stderr)")
        XCTAssertEqual(try reportStatuses(report), Array(repeating: "created", count: 600))
        XCTAssertEqual(try XCTUnwrap(server).accountCount(), 600)
    }

    func testCtrlCWritesThePartialReportAndResumeFinishes() throws {
        let (t, s) = try start()
        let (path, report) = try csv(t, rows: 600, prefix: "sigint")
        let process = try launch(t, s, [path, "--report", report])
        try waitForAccounts(100, while: process)
        process.kill(SIGINT)
        XCTAssertEqual(try process.wait(), 130, "SIGINT ends a batch with 128 + 2, not 1 (some rows failed): \(process.stderr)")
        XCTAssertTrue(process.stderr.contains("interrupted by SIGINT; 600 rows:"), process.stderr)
        XCTAssertTrue(process.stderr.contains("continue with --resume"), process.stderr)
        let partial = try reportStatuses(report)
        XCTAssertEqual(partial.count, 600, "the report lists every row, done or not")
        let done = partial.filter { $0 == "created" }.count
        XCTAssertEqual(done + partial.filter { $0 == "pending" || $0 == "sent" }.count, 600)
        XCTAssertEqual(done, try s.accountCount(), "in-flight answers were awaited and recorded before exiting")

        try resume(t, s, path, report: report)
        XCTAssertEqual(try reportStatuses(report), Array(repeating: "created", count: 600))
        XCTAssertEqual(try s.accountCount(), 600)
    }

    /// Ctrl-C before the profiles were set: the summary counts the accounts the server created
    /// (it used to say none), and --resume sets every profile.
    func testCtrlCBeforeProfilesCountsCreatedAccountsAndResumeSetsThem() throws {
        let (t, s) = try start()
        let users = (0..<300).map { "prof\($0)" }
        let path = t.home + "/prof.csv"
        try Data(("jid,password,nickname\n" + users.map { "\(t.jid($0)),pw-\($0),Nick \($0)" }.joined(separator: "\n") + "\n").utf8)
            .write(to: URL(fileURLWithPath: path))
        let report = t.home + "/prof-report.csv"
        let process = try launch(t, s, [path, "--report", report, "--jobs", "1", "--window", "1"])
        try waitForAccounts(60, while: process)
        process.kill(SIGINT)
        XCTAssertEqual(try process.wait(), 130, process.stderr)
        let created = try s.accountCount()
        XCTAssertLessThan(created, 300, "the interrupt came too late to test anything")
        XCTAssertTrue(process.stderr.contains("interrupted by SIGINT; 300 rows: \(created) created"), process.stderr)
        XCTAssertFalse(process.stderr.contains("this run finished 0 "), process.stderr)

        try resume(t, s, path, report: report)
        XCTAssertEqual(try reportStatuses(report), Array(repeating: "created", count: 300))
        let profiles = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\r\n").dropFirst()
            .map { String($0.split(separator: ",", omittingEmptySubsequences: false)[4]) }
        XCTAssertEqual(Set(profiles), ["applied"], "every profile was set")
        XCTAssertEqual(try s.accountCount(), 300)
    }

    /// Ctrl-C in the log-in phase (--delete, --jobs 4 worker threads): every worker stops after
    /// its current row, each deletion the server made is in the report, and --resume finishes.
    func testCtrlCDuringParallelDeletesLosesNothingAndResumeFinishes() throws {
        let (t, s) = try start()
        let (path, report) = try csv(t, rows: 400, prefix: "del")
        let created = try t.run("xmpp-register", ["batch", path] + s.serverArgs, timeout: 180)
        XCTAssertEqual(created.status, 0, created.stderr)
        XCTAssertEqual(try s.accountCount(), 400)

        let process = try launch(t, s, [path, "--delete", "--jobs", "4", "--report", report])
        let deadline = Date().addingTimeInterval(60)
        while try s.accountCount() > 360 && process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        process.kill(SIGINT)
        XCTAssertEqual(try process.wait(), 130, "an interrupted batch: \(process.stderr)")
        XCTAssertTrue(process.stderr.contains("continue with --resume"), process.stderr)
        let partial = try reportStatuses(report)
        let deleted = partial.filter { $0 == "deleted" }.count
        XCTAssertLessThan(deleted, 400, "the interrupt came too late to test anything")
        XCTAssertEqual(deleted, 400 - (try s.accountCount()), "every deletion the server made is recorded, and only those")

        try resume(t, s, path, report: report, ["--delete"])
        XCTAssertEqual(try reportStatuses(report), Array(repeating: "deleted", count: 400))
        XCTAssertEqual(try s.accountCount(), 0)
    }

    func testThrottlingBacksOffAndEveryRowIsCreated() throws {
        let (t, s) = try start()
        // 10 registrations at once, then 5 a second, for loopback too.
        try s.configure(replacing: "registration_allowlist = { \"127.0.0.1\", \"::1\" }",
                        with: "registration_allowlist = {}\nregistration_throttle_max = 10\nregistration_throttle_period = 2")
        try s.restart()
        let (path, report) = try csv(t, rows: 40, prefix: "throttle")
        let started = Date()
        let r = try t.run("xmpp-register", ["batch", path, "--report", report, "--json"] + s.serverArgs, timeout: 120)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try reportStatuses(report), Array(repeating: "created", count: 40), "no throttled row is dropped")
        XCTAssertEqual(try s.accountCount(), 40)
        XCTAssertGreaterThan(elapsed, 5, "30 rows over the burst at 5/s take 6 s: the server did throttle")
    }
}
