import Foundation
import XCTest
import Glibc

/// One TCP relay in front of the test server (Tests/relay/tcp-relay.py), standing in for one
/// node of a cluster: the test can SIGKILL it mid-batch.
final class Relay {
    let process: BatchChildProcess
    let port: Int

    /// A relay to `server`.
    convenience init(to server: TestServer) throws { try self.init([server.host, String(server.port)]) }

    /// A port that never answers a SYN (`--blackhole`).
    static func blackhole() throws -> Relay { try Relay(["--blackhole"]) }

    private init(_ arguments: [String]) throws {
        let portFile = NSTemporaryDirectory() + "xt-relay-" + UUID().uuidString + ".port"
        process = try BatchChildProcess(["/usr/bin/env", "python3", Paths.root + "/Tests/relay/tcp-relay.py", portFile] + arguments,
                                        environment: ProcessInfo.processInfo.environment, captureStdout: false)
        let deadline = Date().addingTimeInterval(10)
        while true {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = Int(text) {
                self.port = port
                try? FileManager.default.removeItem(atPath: portFile)
                return
            }
            guard Date() < deadline, process.isRunning else { throw TestServerError.unusable("the relay did not start: \(process.stderr)") }
            usleep(20_000)
        }
    }

    deinit {
        if process.isRunning {
            process.kill(SIGKILL)
            _ = try? process.wait(timeout: 5)
        }
    }

    var address: String { "127.0.0.1:\(port)" }

    /// Connections accepted so far.
    var accepted: Int { process.stderr.split(separator: "\n").filter { $0.hasPrefix("accepted ") }.count }

    /// Bytes sent from the server to the clients so far (in 8 KiB steps).
    var downstream: Int {
        process.stderr.split(separator: "\n").last { $0.hasPrefix("downstream ") }.flatMap { Int($0.dropFirst(11)) } ?? 0
    }
}

/// A batch over several endpoints (`--server` given more than once): one that refuses
/// connections, and one that dies mid-batch, cost no row and create none twice.
final class BatchFailoverEndToEndTests: XCTestCase {
    private func csv(_ t: ToolRunner, rows: Int, prefix: String, passwords: Bool) throws -> String {
        let path = t.home + "/\(prefix).csv"
        let users = (0..<rows).map { t.jid("\(prefix)\($0)") }
        let text = (passwords ? "jid,password\n" + users.map { "\($0),pw-\($0)" }.joined(separator: "\n")
                              : "jid\n" + users.joined(separator: "\n")) + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The report's rows: jid → (status, generated password).
    private func report(_ path: String) throws -> [String: (status: String, password: String)] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first, let jid = header.firstIndex(of: "jid"), let status = header.firstIndex(of: "status") else { return [:] }
        let password = header.firstIndex(of: "password")
        var rows: [String: (String, String)] = [:]
        for fields in lines.dropFirst() { rows[fields[jid]] = (fields[status], password.map { fields[$0] } ?? "") }
        return rows
    }

    /// Every account of `rows` exists with that password: a `--delete` batch logs each one in
    /// with it (and removes it, so the shared server is left as it was).
    private func assertEveryAccountLogsIn(_ t: ToolRunner, _ rows: [String: (status: String, password: String)],
                                          via serverArgs: [String]? = nil,
                                          file: StaticString = #filePath, line: UInt = #line) throws {
        let path = t.home + "/check-\(UUID().uuidString).csv"
        try Data(("jid,password\n" + rows.map { "\($0.key),\($0.value.password)" }.joined(separator: "\n") + "\n").utf8)
            .write(to: URL(fileURLWithPath: path))
        let r = try t.run("xmpp-register", ["batch", path, "--delete", "--json", "--jobs", "4"] + (serverArgs ?? t.serverArgs), timeout: 300)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        let statuses = try BatchEndToEndTests.statuses(r)
        XCTAssertEqual(statuses.count, rows.count, file: file, line: line)
        XCTAssertEqual(Set(statuses.values), ["deleted"], "every account logs in with the reported password", file: file, line: line)
    }

    func testARefusingFirstServerCostsNoRow() throws {
        let server = try TestServer.require()
        try server.require("register-unthrottled", "a batch of 60 registrations from one address")
        let t = try ToolRunner(server: server)
        let prefix = ToolRunner.username("dead")
        let path = try csv(t, rows: 60, prefix: prefix, passwords: false)
        let reportPath = t.home + "/\(prefix)-report.csv"
        // Port 1 on loopback: nothing listens, the connect is refused.
        let r = try t.run("xmpp-register", ["batch", path, "--generate-passwords", "--report", reportPath, "--jobs", "3",
                                            "--server", "127.0.0.1:1", "--server", server.server, "--ca-file", server.caFile],
                          timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try report(reportPath)
        XCTAssertEqual(rows.count, 60)
        XCTAssertEqual(Set(rows.values.map(\.status)), ["created"], r.stderr)
        // The log-in phase (one log-in per row, the endpoints in turn) gets past the dead one too.
        try assertEveryAccountLogsIn(t, rows, via: ["--server", "127.0.0.1:1", "--server", server.server, "--ca-file", server.caFile])
    }

    /// Every endpoint down: the batch fails as it does with one (status 6, rows left for --resume).
    func testAllEndpointsDownFailsAsOneDoes() throws {
        let server = try TestServer.require()
        let t = try ToolRunner(server: server)
        let path = try csv(t, rows: 5, prefix: ToolRunner.username("down"), passwords: true)
        let one = try t.run("xmpp-register", ["batch", path, "--report", t.home + "/one.csv", "--server", "127.0.0.1:1",
                                              "--ca-file", server.caFile])
        let two = try t.run("xmpp-register", ["batch", path, "--report", t.home + "/two.csv", "--server", "127.0.0.1:1",
                                              "--server", "127.0.0.1:2", "--ca-file", server.caFile])
        XCTAssertEqual(one.status, 6, one.stderr)
        XCTAssertEqual(two.status, 6, two.stderr)
        XCTAssertTrue(two.stderr.contains("5 rows: 5 not done"), two.stderr)
        XCTAssertTrue(two.stderr.contains("continue with --resume"), two.stderr)
    }

    /// A single-account tool tries the --server values in order; the first never answers a
    /// SYN and costs the connect budget (3 s), not --timeout (15 s).
    func testABlackholedFirstServerCostsSecondsNotTheTimeout() throws {
        let server = try TestServer.require()
        try server.require("register", "the registration form is what the tool asks for")
        let t = try ToolRunner(server: server)
        let hole = try Relay.blackhole()
        let start = Date()
        let r = try t.run("xmpp-register", ["form", server.domain, "--timeout", "15", "--server", hole.address,
                                            "--server", server.server, "--ca-file", server.caFile], timeout: 60)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertLessThan(elapsed, 8, "the unanswered first --server cost \(elapsed) s")
    }

    func testANodeKilledMidBatchLosesNoRowAndCreatesNoneTwice() throws {
        let server = try TestServer.require()
        try server.require("register-unthrottled", "a batch of 1000 registrations from one address")
        try server.require("register-pipelining", "rows in flight when the node dies")
        let t = try ToolRunner(server: server)
        let prefix = ToolRunner.username("kill")
        let path = try csv(t, rows: 1000, prefix: prefix, passwords: false)
        let reportPath = t.home + "/\(prefix)-report.csv"
        let doomed = try Relay(to: server)
        let survivor = try Relay(to: server)
        let batch = try BatchChildProcess(
            [Paths.binaries + "/xmpp-register", "batch", path, "--generate-passwords", "--report", reportPath, "--jobs", "4",
             "--server", doomed.address, "--server", survivor.address, "--ca-file", server.caFile],
            environment: t.environment, captureStdout: false)
        // Both take streams; once the doomed one has carried about a third of its share of the
        // answers (Prosody's 500 results are some 25 KB through TLS), it dies.
        guard let survivorBefore = try killMidBatch(batch, doomed: doomed, survivor: survivor) else { return }
        XCTAssertEqual(try batch.wait(timeout: 300), 0, batch.stderr)
        XCTAssertTrue(batch.stderr.contains("\(doomed.address) failed"), batch.stderr)
        XCTAssertTrue(batch.stderr.contains("move to the other endpoints"), batch.stderr)
        XCTAssertGreaterThan(survivor.accepted, survivorBefore, "the doomed endpoint's streams moved to the survivor")
        let rows = try report(reportPath)
        XCTAssertEqual(rows.count, 1000, "complete report")
        XCTAssertEqual(Set(rows.values.map(\.status)), ["created"], "every row created once: none failed, none 'exists'")
        XCTAssertTrue(rows.values.allSatisfy { !$0.password.isEmpty })
        // The generated passwords in the report are the ones the accounts have, also for the
        // rows in flight on the streams that dropped (sent again, or checked by logging in).
        try assertEveryAccountLogsIn(t, rows)
    }

    /// The admin engine (XEP-0133 add-user on administrator streams) over two relays, one
    /// killed mid-batch: every row created once, counted on the server.
    func testAnAdminBatchSurvivesANodeKilledMidBatch() throws {
        let admin = try AdminServer.require()
        let t = try admin.adminRunner()
        let prefix = String(ToolRunner.username("ak").prefix(8))
        let path = try csv(t, rows: 400, prefix: prefix, passwords: true)
        let reportPath = t.home + "/\(prefix)-report.csv"
        let before = try admin.accountCount()
        let doomed = try Relay(to: admin.server)
        let survivor = try Relay(to: admin.server)
        let batch = try BatchChildProcess(
            [Paths.binaries + "/xmpp-register", "batch", path, "--admin", "--report", reportPath, "--jobs", "4", "--trace",
             "--server", doomed.address, "--server", survivor.address, "--ca-file", admin.server.caFile],
            environment: t.environment, captureStdout: false)
        guard let survivorBefore = try killMidBatch(batch, doomed: doomed, survivor: survivor) else { return }
        let exitStatus = try batch.wait(timeout: 300)
        let notes = batch.stderr.split(separator: "\n").filter { !$0.hasPrefix("SEND ") && !$0.hasPrefix("RECV ") }.joined(separator: "\n")
        XCTAssertTrue(notes.contains("\(doomed.address) failed"), notes)
        XCTAssertGreaterThan(survivor.accepted, survivorBefore, "the doomed endpoint's streams moved to the survivor")
        let rows = try report(reportPath)
        XCTAssertEqual(rows.count, 400, "complete report")
        _ = AddUserConflictOutcome.check(admin.server, exitStatus: exitStatus, rows: rows, stderr: notes)
        XCTAssertEqual(try admin.accountCount(), before + 400, "every row's account made exactly once, counted on the server")
        // No add-user met an account its first request had made (the conflict that ejabberd
        // then poisons its auth cache on): the rows in flight on the killed stream were logged
        // into first, and sent again only when their accounts were not there.
        let answers = batch.stderr.split(separator: "\n").filter { $0.hasPrefix("RECV ") }
        XCTAssertEqual(answers.filter { $0.contains("<conflict") || $0.contains("already exists") }.count, 0,
                       "an add-user was answered 'exists'")
    }
    /// Waits until `doomed` has carried 8 KB of answers while the batch runs, checks that the
    /// streams were spread over both relays, and SIGKILLs it; the survivor's stream count then,
    /// or nil (after failing the test) when the batch ended first or the relay carried too little.
    private func killMidBatch(_ batch: BatchChildProcess, doomed: Relay, survivor: Relay) throws -> Int? {
        let deadline = Date().addingTimeInterval(120)
        while doomed.downstream < 8_000 {
            guard batch.isRunning else {
                XCTFail("the batch ended before the relay was killed: make the CSV bigger. \(batch.stderr)")
                return nil
            }
            guard Date() < deadline else {
                XCTFail("the relay carried only \(doomed.downstream) bytes in 120 s: the batch never got going. \(batch.stderr)")
                return nil
            }
            usleep(5_000)
        }
        XCTAssertGreaterThan(survivor.accepted, 0, "streams are spread over both endpoints")
        doomed.process.kill(SIGKILL)
        XCTAssertEqual(try doomed.process.wait(timeout: 10), 128 + SIGKILL)
        return survivor.accepted
    }
}

