import Foundation
import XCTest

/// The two-node ejabberd cluster (`scripts/test-server start ejabberd --cluster`): shards of one
/// CSV run at once against different nodes, each node's own account list, the documented way
/// to merge the shards' reports, and an account made on one node used on the other.
final class ClusterEndToEndTests: XCTestCase {
    override func setUpWithError() throws { _ = try TestServer.requireCluster() }

    /// A report's rows by CSV line: its status column (the report is CRLF CSV; these rows quote nothing).
    private func reportRows(_ path: String) throws -> (header: String, rows: [Int: String], count: Int) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\r\n").map(String.init)
        let header = try XCTUnwrap(lines.first, "\(path) is empty")
        var rows: [Int: String] = [:]
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            let number = try XCTUnwrap(Int(fields[0]), line)
            XCTAssertNil(rows[number], "line \(number) twice in \(path)")
            rows[number] = String(fields[2])
        }
        return (header, rows, lines.count - 1)
    }

    func testShardsRunAtOnceOnTwoNodesCreateEveryRowOnceAndTheirReportsMerge() throws {
        let s = try TestServer.require()
        let t = try ToolRunner(server: s)
        let users = (0..<60).map { _ in ToolRunner.username("cl") }
        let csv = t.home + "/cluster.csv"
        try Data(("jid,password\n" + users.map { "\(t.jid($0)),pw-\($0)" }.joined(separator: "\n") + "\n").utf8)
            .write(to: URL(fileURLWithPath: csv))

        // As two machines would: both shards at the same moment, each against its own node.
        let shards = try (1...2).map { k in
            let process = try BatchChildProcess(
                [Paths.binaries + "/xmpp-register", "batch", csv, "--shard", "\(k)/2", "--json",
                 "--report", t.home + "/r\(k).csv", "--server", s.nodeAddress(k), "--ca-file", s.caFile],
                environment: t.environment, captureStdout: true)
            return process
        }
        var seen: [Int: Int] = [:]
        for (index, process) in shards.enumerated() {
            let out = process.readStdout()
            XCTAssertEqual(try process.wait(), 0, "shard \(index + 1)/2: \(process.stderr)")
            for line in out.split(separator: "\n") {
                let row = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
                let number = try XCTUnwrap(row["line"] as? Int)
                XCTAssertNil(seen[number], "line \(number) in shard \(seen[number] ?? 0) and shard \(index + 1)")
                XCTAssertEqual(row["status"] as? String, "created", String(line))
                seen[number] = index + 1
            }
        }
        XCTAssertEqual(seen.keys.sorted(), Array(2...61), "the union of the shards is every row")
        XCTAssertEqual(Set(seen.values), [1, 2], "each shard took some rows")

        // Every account exactly once, whichever node is asked (one Mnesia).
        for node in 1...2 {
            let listed = try s.registeredUsers(node: node).filter { $0.hasPrefix("cl") }
            let mine = listed.filter { Set(users).contains($0) }
            XCTAssertEqual(mine.count, Set(mine).count, "node \(node) lists an account twice")
            XCTAssertEqual(Set(mine), Set(users), "node \(node) lacks \(Set(users).subtracting(mine).sorted())")
        }

        // The reports: each holds only its shard; the recipe of xmpp-register(1) merges them.
        let r1 = try reportRows(t.home + "/r1.csv"), r2 = try reportRows(t.home + "/r2.csv")
        XCTAssertEqual(r1.header, r2.header)
        XCTAssertTrue(Set(r1.rows.keys).isDisjoint(with: r2.rows.keys), "the shards' reports overlap")
        let merged = t.home + "/all.csv"
        let recipe = "{ head -n 1 r1.csv; tail -q -n +2 r1.csv r2.csv | sort -t, -k1,1n; } > all.csv"
        let r = try Shell.run(["/bin/sh", "-c", "cd '\(t.home)' && " + recipe], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        let all = try reportRows(merged)
        XCTAssertEqual(all.header, r1.header, "one header")
        XCTAssertEqual(all.count, 60, "one row per CSV row")
        XCTAssertEqual(all.rows.keys.sorted(), Array(2...61))
        XCTAssertEqual(Set(all.rows.values), ["created"])
        let order = try String(contentsOfFile: merged, encoding: .utf8).split(separator: "\r\n").dropFirst()
            .compactMap { Int($0.prefix(while: { $0 != "," })) }
        XCTAssertEqual(order, Array(2...61), "rows in CSV order")
        let manPage = try String(contentsOfFile: Paths.root + "/man/xmpp-register.1", encoding: .utf8)
        XCTAssertTrue(manPage.contains(recipe.replacingOccurrences(of: "-", with: "\\-")),
                      "xmpp-register(1) documents the recipe this test runs")

        // A second run of each shard against the other node: every row exists, nothing is made twice.
        for k in 1...2 {
            let again = try t.run("xmpp-register", ["batch", csv, "--shard", "\(k)/2", "--json",
                                                    "--server", s.nodeAddress(3 - k), "--ca-file", s.caFile])
            XCTAssertEqual(again.status, 0, again.stderr)
            XCTAssertEqual(Set(try BatchEndToEndTests.statuses(again).values), ["exists"])
        }
    }

    func testAnAccountRegisteredOnNodeOneLogsInOnNodeTwo() throws {
        let s = try TestServer.require()
        let t = try ToolRunner(server: s)
        let user = ToolRunner.username("rep")
        let password = "pw-" + UUID().uuidString
        let created = try t.run("xmpp-register", [t.jid(user), "--server", s.nodeAddress(1), "--ca-file", s.caFile], password: password)
        XCTAssertEqual(created.status, 0, created.stderr)
        let login = try t.login(t.jid(user), password, ["--server", s.nodeAddress(2), "--ca-file", s.caFile])
        XCTAssertEqual(login.status, 0, "log-in on node 2: \(login.stderr)")
        let wrong = try t.login(t.jid(user), password + "x", ["--server", s.nodeAddress(2), "--ca-file", s.caFile])
        XCTAssertNotEqual(wrong.status, 0, "node 2 checks the password node 1 stored")
        XCTAssertTrue(try s.registeredUsers(node: 2).contains(user))
    }
}
