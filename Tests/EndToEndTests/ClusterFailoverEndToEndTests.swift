import Foundation
import XCTest
import Glibc

/// One batch over both nodes of the real two-node ejabberd cluster (`--server` for each): the
/// streams go to both (each node's log names the accounts it registered), every row is made
/// once; and node 2 SIGKILLed mid-batch costs no row and makes none twice, for in-band
/// registration and for the administrator's add-user (XEP-0133). A test that kills node 2 of
/// the shared cluster brings it back before it ends (`test-server restart DIR --node 2`), so
/// the classes after it find both nodes.
final class ClusterFailoverEndToEndTests: XCTestCase {
    override func setUpWithError() throws { _ = try TestServer.requireCluster() }

    // MARK: the cluster's nodes

    /// Both nodes, node 1 first: one `--server` each.
    private func bothNodes(_ s: TestServer) -> [String] {
        ["--server", s.nodeAddress(1), "--server", s.nodeAddress(2), "--ca-file", s.caFile]
    }

    private static func nodeDirectory(_ s: TestServer, _ node: Int) -> String { node == 1 ? s.directory : s.directory + "/node2" }

    /// The node's beam.smp, from its pid file (a restart changes it, so XT_NODE2_PID may be stale).
    private static func nodePid(_ s: TestServer, _ node: Int) throws -> pid_t {
        let text = try String(contentsOfFile: Self.nodeDirectory(s, node) + "/run/server.pid", encoding: .utf8)
        return try XCTUnwrap(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), "node \(node)'s pid file")
    }

    /// Running and not a zombie (pid 1 reaps the detached VM only every ~2 s).
    private static func isAlive(_ pid: pid_t) -> Bool {
        guard Glibc.kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !(stat.split(separator: ")").last?.hasPrefix(" Z") ?? false)
    }

    private static func testServer(_ args: [String], timeout: TimeInterval = 120) throws -> RunResult {
        try Shell.run([Paths.root + "/scripts/test-server"] + args, timeout: timeout)
    }

    /// Each of `users` listed exactly once on `node`.
    private func assertListedOnce(_ s: TestServer, node: Int, _ users: Set<String>, file: StaticString = #filePath, line: UInt = #line) throws {
        let listed = try s.registeredUsers(node: node).filter { users.contains($0) }
        XCTAssertEqual(listed.count, Set(listed).count, "node \(node) lists an account twice", file: file, line: line)
        XCTAssertEqual(Set(listed), users, "node \(node) lacks \(users.subtracting(listed).sorted().prefix(5))…", file: file, line: line)
    }

    private func logPath(_ s: TestServer, _ node: Int) -> String { Self.nodeDirectory(s, node) + "/log/ejabberd.log" }

    /// Where each node's log ends now, to read what comes after.
    private func logOffsets(_ s: TestServer) -> [Int] { [logSize(s, 1), logSize(s, 2)] }

    private func logSize(_ s: TestServer, _ node: Int) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: logPath(s, node)))?[.size] as? Int) ?? 0
    }

    /// The log of `node` written since byte `offset`.
    private func logSince(_ s: TestServer, _ node: Int, _ offset: Int) -> String {
        guard let handle = FileHandle(forReadingAtPath: logPath(s, node)) else { return "" }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(offset))
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }

    /// The users `node` says it registered since `offset` (mod_register logs each at info level:
    /// "The account U@localhost was registered from IP address …"), among those starting with `prefix`.
    private func registeredInLog(_ s: TestServer, _ node: Int, since offset: Int, prefix: String) -> [String] {
        logSince(s, node, offset).split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "The account ") , line.contains(" was registered") else { return nil }
            let user = line[range.upperBound...].prefix(while: { $0 != "@" })
            return user.hasPrefix(prefix) ? String(user) : nil
        }
    }

    /// The users that authenticated on `node` since `offset` ("Accepted c2s … authentication for
    /// U@localhost by …"), among those starting with `prefix`, once per log-in.
    private func authenticatedInLog(_ s: TestServer, _ node: Int, since offset: Int, prefix: String) -> [String] {
        logSince(s, node, offset).split(separator: "\n").compactMap { line -> String? in
            guard line.contains("Accepted c2s "), let range = line.range(of: " authentication for ") else { return nil }
            let user = line[range.upperBound...].prefix(while: { $0 != "@" })
            return user.hasPrefix(prefix) ? String(user) : nil
        }
    }

    /// Established TCP connections to `node`'s c2s port right now (`ss`): streams it serves.
    private func streamsOn(_ s: TestServer, _ node: Int) -> Int {
        let r = try? Shell.run(["/bin/sh", "-c", "ss -Htn state established '( sport = :\(s.nodePorts[node - 1]) )' | wc -l"], timeout: 10)
        return Int(r?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
    }

    /// Connections `node` accepted on its c2s port since `offset` ("Accepted connection … -> 127.0.0.1:PORT").
    private func acceptedInLog(_ s: TestServer, _ node: Int, since offset: Int) -> Int {
        logSince(s, node, offset).split(separator: "\n")
            .filter { $0.contains("Accepted connection") && $0.hasSuffix(":\(s.nodePorts[node - 1])") }.count
    }

    // MARK: batches

    /// A batch of `count` new accounts under a fresh prefix (which finds them in the logs): the
    /// prefix, the local parts, the sheet (with passwords or not) and where its report goes.
    private func batch(_ t: ToolRunner, _ tag: String, _ count: Int, passwords: Bool) throws
        -> (prefix: String, users: [String], path: String, report: String) {
        let prefix = ToolRunner.username(tag)
        let users = (0..<count).map { "\(prefix)x\($0)" }
        return (prefix, users, try csv(t, users, passwords: passwords), t.home + "/\(tag)-report.csv")
    }

    private func csv(_ t: ToolRunner, _ users: [String], passwords: Bool) throws -> String {
        let path = t.home + "/\(UUID().uuidString).csv"
        let text = (passwords ? "jid,password\n" + users.map { "\(t.jid($0)),pw-\($0)" }.joined(separator: "\n")
                              : "jid\n" + users.map { t.jid($0) }.joined(separator: "\n")) + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The report's rows: local part → (status, password): the generated one, or (the report
    /// holds none when the CSV gives them) the CSV's `pw-USER`.
    private func report(_ path: String) throws -> [String: (status: String, password: String)] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\r\n")
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first, let jid = header.firstIndex(of: "jid"), let status = header.firstIndex(of: "status") else {
            XCTFail("\(path) has no header")
            return [:]
        }
        let password = header.firstIndex(of: "password")
        var rows: [String: (String, String)] = [:]
        for fields in lines.dropFirst() {
            let user = String(fields[jid].prefix(while: { $0 != "@" }))
            XCTAssertNil(rows[user], "\(user) twice in the report")
            rows[user] = (fields[status], password.map { fields[$0] } ?? "pw-" + user)
        }
        return rows
    }

    /// Every account logs in with its reported password through `server` alone: a `--delete`
    /// batch logs each one in with it (and removes it, leaving the cluster as it was).
    private func assertEveryAccountLogsIn(_ t: ToolRunner, _ rows: [String: (status: String, password: String)], via server: String,
                                          caFile: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = t.home + "/check-\(UUID().uuidString).csv"
        try Data(("jid,password\n" + rows.map { "\(t.jid($0.key)),\($0.value.password)" }.joined(separator: "\n") + "\n").utf8)
            .write(to: URL(fileURLWithPath: path))
        let r = try t.run("xmpp-register", ["batch", path, "--delete", "--json", "--jobs", "4", "--server", server, "--ca-file", caFile],
                          timeout: 300)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        let statuses = try BatchEndToEndTests.statuses(r)
        XCTAssertEqual(statuses.count, rows.count, file: file, line: line)
        XCTAssertEqual(Set(statuses.values), ["deleted"], "every account logs in with the reported password", file: file, line: line)
    }

    /// Starts `argv`, waits until it has reported `rows` rows (JSON Lines) and `ready()` holds,
    /// SIGKILLs node 2, and returns the batch and how many rows it had reported by then.
    private func killNodeTwoMidBatch(_ s: TestServer, _ argv: [String], environment: [String: String], rows: Int,
                                     until ready: () -> Bool) throws -> (batch: BatchChildProcess, reportedAtKill: Int) {
        let victim = try Self.nodePid(s, 2)
        let batch = try BatchChildProcess(argv, environment: environment, captureStdout: true)
        let deadline = Date().addingTimeInterval(120)
        var reported = 0
        while reported < rows || !ready() {
            guard batch.isRunning else {
                XCTFail("the batch ended before node 2 was killed (\(reported) rows reported): make the CSV bigger. \(batch.stderr)")
                throw TestServerError.unusable("the batch ended before the kill")
            }
            guard Date() < deadline else { throw XCTSkip("cluster too slow: \(reported) rows in 120 s") }
            usleep(5_000)
            reported = batch.stdoutSoFar().filter { $0 == "\n" }.count
        }
        XCTAssertEqual(Glibc.kill(victim, SIGKILL), 0, "kill -9 node 2 (pid \(victim))")
        let gone = Date().addingTimeInterval(10)
        while Self.isAlive(victim), Date() < gone { usleep(10_000) }
        XCTAssertFalse(Self.isAlive(victim), "node 2 is dead")
        return (batch, batch.stdoutSoFar().filter { $0 == "\n" }.count)
    }

    /// Node 2 of the shared cluster back (after a kill), both nodes in `list_cluster`: later tests
    /// and classes of this pass need it. Registered as a teardown so a failed assertion cannot skip it.
    private func restoreNodeTwoAtTeardown(_ s: TestServer) {
        addTeardownBlock {
            if let pid = try? Self.nodePid(s, 2), Self.isAlive(pid) { return }
            let r = try Self.testServer(["restart", s.directory, "--node", "2"])
            XCTAssertEqual(r.status, 0, "restart --node 2: \(r.stderr)")
        }
    }

    // MARK: tests

    func testOneBatchOverBothNodesSendsStreamsToEachAndCreatesEveryRowOnce() throws {
        let s = try TestServer.require()
        let t = try ToolRunner(server: s)
        let (prefix, users, path, reportPath) = try batch(t, "sp", 80, passwords: true)
        let offsets = logOffsets(s)
        let r = try t.run("xmpp-register", ["batch", path, "--json", "--jobs", "4", "--report", reportPath] + bothNodes(s), timeout: 180)
        XCTAssertEqual(r.status, 0, r.stderr)
        let statuses = try BatchEndToEndTests.statuses(r)
        XCTAssertEqual(statuses.keys.sorted(), Array(2...81), "one JSON line per row")
        XCTAssertEqual(Set(statuses.values), ["created"])
        let rows = try report(reportPath)
        XCTAssertEqual(Set(rows.keys), Set(users), "complete report")

        // Which node made which account: each node's mod_register logs the accounts it
        // registered (lines reach the file a little after the answer: poll).
        var byNode: [[String]] = [[], []]
        let deadline = Date().addingTimeInterval(10)
        repeat {
            byNode = [registeredInLog(s, 1, since: offsets[0], prefix: prefix), registeredInLog(s, 2, since: offsets[1], prefix: prefix)]
            if byNode[0].count + byNode[1].count >= users.count { break }
            usleep(100_000)
        } while Date() < deadline
        XCTAssertFalse(byNode[0].isEmpty, "node 1 registered none of the batch's accounts")
        XCTAssertFalse(byNode[1].isEmpty, "node 2 registered none of the batch's accounts: the streams did not go to both")
        XCTAssertTrue(Set(byNode[0]).isDisjoint(with: byNode[1]), "an account registered on both nodes")
        XCTAssertEqual(byNode[0].count + byNode[1].count, users.count, "each account registered exactly once: \(byNode.map(\.count))")
        XCTAssertEqual(Set(byNode[0] + byNode[1]), Set(users))
        XCTAssertGreaterThan(acceptedInLog(s, 1, since: offsets[0]), 0)
        XCTAssertGreaterThan(acceptedInLog(s, 2, since: offsets[1]), 0)

        // One Mnesia: every account, once, on each node's own list.
        for node in 1...2 { try assertListedOnce(s, node: node, Set(users)) }
    }

    /// The roster phase (the batch logs in as each account, twice) spreads its log-ins over the
    /// endpoints too; it used to try `--server` values in order, so node 2 saw none of them.
    func testRosterPhaseOfABatchOverBothNodesLogsInOnEach() throws {
        let s = try TestServer.require()
        let t = try ToolRunner(server: s)
        let prefix = ToolRunner.username("rp")
        let users = (0..<12).map { "\(prefix)x\($0)" }
        let path = t.home + "/rosters.csv"
        let text = "jid,password,groups,contacts\n" + users.map { "\(t.jid($0)),pw-\($0),G,G\n" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let reportPath = t.home + "/rosters-report.csv"
        let offsets = logOffsets(s)
        let r = try t.run("xmpp-register", ["batch", path, "--json", "--jobs", "4", "--report", reportPath] + bothNodes(s), timeout: 180)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = try String(contentsOfFile: reportPath, encoding: .utf8).split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let rosterColumn = try XCTUnwrap(lines.first?.firstIndex(of: "roster"), "the report has a roster column")
        XCTAssertEqual(Set(lines.dropFirst().map { String($0[rosterColumn]) }), ["done"], "every row's roster done")

        // Each node's c2s logs the accounts that authenticated on it: only the roster phase logs
        // in here (in-band registration streams do not), two passes of twelve accounts.
        var byNode: [[String]] = [[], []]
        let deadline = Date().addingTimeInterval(10)
        repeat {
            byNode = [authenticatedInLog(s, 1, since: offsets[0], prefix: prefix), authenticatedInLog(s, 2, since: offsets[1], prefix: prefix)]
            if byNode[0].count + byNode[1].count >= 2 * users.count { break }
            usleep(100_000)
        } while Date() < deadline
        XCTAssertFalse(byNode[0].isEmpty, "node 1 served none of the roster phase's log-ins")
        XCTAssertFalse(byNode[1].isEmpty, "node 2 served none of the roster phase's log-ins: they did not spread")
        XCTAssertEqual(byNode[0].count + byNode[1].count, 2 * users.count, "two log-ins per account: \(byNode.map(\.count))")
    }

    func testNodeTwoKilledMidBatchLosesNoRowAndCreatesNoneTwice() throws {
        let s = try TestServer.require()
        try s.require("register-pipelining", "rows in flight on node 2 when it dies")
        restoreNodeTwoAtTeardown(s)
        let t = try ToolRunner(server: s)
        let (prefix, users, path, reportPath) = try batch(t, "kn", 200, passwords: false)
        let offsets = logOffsets(s)
        // Killed once 40 rows are reported and node 2 serves streams of the batch (its log lags
        // by up to 2 s, Erlang's delayed_write, so the sockets tell).
        let (batch, reportedAtKill) = try killNodeTwoMidBatch(
            s, [Paths.binaries + "/xmpp-register", "batch", path, "--generate-passwords", "--json", "--jobs", "4",
                "--report", reportPath] + bothNodes(s),
            environment: t.environment, rows: 40, until: { streamsOn(s, 2) > 0 })
        XCTAssertLessThan(reportedAtKill, users.count * 2 / 3, "node 2 died mid-batch")
        let out = batch.readStdout()
        // xmpp-register(1): an endpoint that drops is noted and its rows finished elsewhere; only
        // every endpoint down fails the batch.
        XCTAssertEqual(try batch.wait(timeout: 300), 0, batch.stderr)
        XCTAssertTrue(batch.stderr.contains("\(s.nodeAddress(2)) failed"), batch.stderr)
        XCTAssertEqual(out.split(separator: "\n").count, users.count, "one JSON line per row")

        let rows = try report(reportPath)
        XCTAssertEqual(Set(rows.keys), Set(users), "complete report")
        XCTAssertEqual(Set(rows.values.map(\.status)), ["created"], "every row created once: none failed, none 'exists'")
        XCTAssertTrue(rows.values.allSatisfy { !$0.password.isEmpty })
        try assertListedOnce(s, node: 1, Set(users))
        // Node 2's last log lines may die with it; what both logs hold never names an account twice.
        let byNode = [registeredInLog(s, 1, since: offsets[0], prefix: prefix), registeredInLog(s, 2, since: offsets[1], prefix: prefix)]
        XCTAssertTrue(Set(byNode[0]).isDisjoint(with: byNode[1]), "an account registered on both nodes")
        XCTAssertEqual(byNode[0].count, Set(byNode[0]).count)

        // Node 2 back: it catches up from node 1 (one Mnesia) and the cluster is whole again.
        let back = try Self.testServer(["restart", s.directory, "--node", "2"])
        XCTAssertEqual(back.status, 0, back.stderr)
        try assertListedOnce(s, node: 2, Set(users))
        // The generated passwords in the report are the accounts', the rows in flight on node 2's
        // dropped streams included: each logs in through the node that survived.
        try assertEveryAccountLogsIn(t, rows, via: s.nodeAddress(1), caFile: s.caFile)
    }

    /// The administrator's add-user (XEP-0133) over both nodes of a private cluster with
    /// `--admin boss`, node 2 killed mid-batch; then `test-server stop` with node 2 dead.
    func testAdminBatchSurvivesNodeTwoKilledMidBatch() throws {
        let shared = try TestServer.require()
        let s = try TestServer.startPrivate(shared.kind, ["--cluster", "--admin", "boss"], everyPass: true)
        var stopped = false
        defer { if !stopped { s.stop() } }
        try s.require("admin-commands", "XEP-0133 add-user")
        XCTAssertEqual(s.nodePorts.count, 2)
        let t = try ToolRunner(server: s)
        let bossPassword = "boss-" + UUID().uuidString
        let made = try Self.testServer(["ctl", s.directory, "register", "boss", s.domain, bossPassword], timeout: 60)
        XCTAssertEqual(made.status, 0, made.stderr)
        let login = try t.run("xmpp-login", [t.jid("boss"), "--server", s.nodeAddress(1), "--ca-file", s.caFile], password: bossPassword)
        XCTAssertEqual(login.status, 0, login.stderr)

        let prefix = String(ToolRunner.username("ak").prefix(8))
        let users = (0..<150).map { "\(prefix)x\($0)" }
        let path = try csv(t, users, passwords: true)
        let reportPath = t.home + "/admin.csv"
        let (batch, reportedAtKill) = try killNodeTwoMidBatch(
            s, [Paths.binaries + "/xmpp-register", "batch", path, "--admin", "--json", "--jobs", "4",
                "--report", reportPath] + bothNodes(s),
            environment: t.environment, rows: 30, until: { streamsOn(s, 2) > 0 })
        XCTAssertLessThan(reportedAtKill, users.count * 2 / 3, "node 2 died mid-batch")
        _ = batch.readStdout()
        let exitStatus = try batch.wait(timeout: 300)
        XCTAssertTrue(batch.stderr.contains("\(s.nodeAddress(2)) failed"), batch.stderr)
        let rows = try report(reportPath)
        XCTAssertEqual(Set(rows.keys), Set(users), "complete report")
        let created = AddUserConflictOutcome.check(s, exitStatus: exitStatus, rows: rows, stderr: batch.stderr)
        try assertListedOnce(s, node: 1, Set(users))
        try assertEveryAccountLogsIn(t, rows.filter { created.contains($0.key) }, via: s.nodeAddress(1), caFile: s.caFile)

        // Stop with node 2 dead: node 1 and the epmd go, every port closes.
        let stop = try Self.testServer(["stop", s.directory], timeout: 60)
        stopped = true
        XCTAssertEqual(stop.status, 0, stop.stderr)
        let status = try Self.testServer(["status", s.directory], timeout: 30)
        XCTAssertEqual(status.status, 3, "nothing of the cluster runs after stop: \(status.stderr)")
        for port in s.nodePorts {
            let probe = try Shell.run(["/bin/sh", "-c", "ss -Hltn 'sport = :\(port)' | grep -q ."], timeout: 10)
            XCTAssertNotEqual(probe.status, 0, "port \(port) still listening after stop")
        }
    }
}
