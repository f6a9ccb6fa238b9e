import Foundation
import XCTest

/// The whole new-user flow with generated passwords, on the shared server (Prosody or ejabberd):
/// provisioning, re-running (skip and --on-exists update), growing the CSV, a SIGTERM in the
/// middle and --resume. No password may be lost or replaced by one that was never set.
final class BatchPasswordFlowEndToEndTests: XCTestCase {
    /// Every test registers fresh accounts and checks them by logging in (a cached session).
    override func setUpWithError() throws {
        try TestServer.require().requireLoginAccounts()
    }

    /// The report's rows as dictionaries keyed by its header (RFC 4180: quoted fields may hold commas).
    static func report(_ path: String) throws -> [[String: String]] {
        var records: [[String]] = [], fields: [String] = [], field = "", quoted = false
        var chars = Array(try String(contentsOfFile: path, encoding: .utf8).unicodeScalars)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" { if chars.first == "\"" { chars.removeFirst(); field.unicodeScalars.append(c) } else { quoted = false } }
                else { field.unicodeScalars.append(c) }
            } else if c == "\"" { quoted = true }
            else if c == "," { fields.append(field); field = "" }
            else if c == "\r" { continue }
            else if c == "\n" { fields.append(field); records.append(fields); fields = []; field = "" }
            else { field.unicodeScalars.append(c) }
        }
        guard let header = records.first else { return [] }
        return records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    private func passwords(_ rows: [[String: String]]) -> [String: String] {
        var out: [String: String] = [:]
        for row in rows { if let jid = row["jid"], let p = row["password"], !p.isEmpty { out[jid] = p } }
        return out
    }

    private func journalCount(_ journal: String, _ condition: String) throws -> Int {
        // Read-only: a plain open would create the file while the batch replaces the journal.
        let r = try Shell.run(["/usr/bin/sqlite3", "-readonly", journal, "SELECT count(*) FROM journal_rows WHERE \(condition)"])
        return Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    private func writeCSV(_ path: String, _ users: [String]) throws {
        try Data(("username\n" + users.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    }

    func testGeneratedPasswordsSurviveReRunsGrowthInterruptionAndResume() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let first = (0..<12).map { _ in ToolRunner.username("pf") }
        let more = (0..<150).map { _ in ToolRunner.username("pg") }
        let csv = t.home + "/staff.csv", report = t.home + "/staff-report.csv", journal = report + ".journal"
        let args = [csv, "--domain", t.server.domain, "--generate-passwords", "--report", report] + t.serverArgs
        try writeCSV(csv, first)

        // 1. Provisioning: every row created, its password only in the report.
        let provision = try t.run("xmpp-register", ["batch"] + args)
        XCTAssertEqual(provision.status, 0, provision.stderr)
        let original = passwords(try Self.report(report))
        XCTAssertEqual(original.count, first.count)
        XCTAssertEqual(try journalCount(journal, "generated_password IS NOT NULL"), 0, "a finished run keeps passwords only in the report")

        // 2. The same run again: every row exists, and keeps the password it was created with.
        let again = try t.run("xmpp-register", ["batch"] + args + ["--json"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(Set(try BatchEndToEndTests.statuses(again).values), ["exists"])
        XCTAssertEqual(passwords(try Self.report(report)), original, "a re-run must not replace the passwords")

        // 3. --on-exists update logs in with the report's passwords.
        let update = try t.run("xmpp-register", ["batch"] + args + ["--on-exists", "update", "--json"])
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertEqual(Set(try BatchEndToEndTests.statuses(update).values), ["updated"], update.stdout)
        XCTAssertEqual(passwords(try Self.report(report)), original)

        // 4. The CSV grows; the run is stopped by SIGTERM part way.
        try writeCSV(csv, first + more)
        let process = try BatchChildProcess([Paths.binaries + "/xmpp-register", "batch"] + args + ["--jobs", "1", "--window", "1"],
                                            environment: t.environment, captureStdout: false)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline && ((try? journalCount(journal, "status='created'")) ?? 0) < 10 {
            Thread.sleep(forTimeInterval: 0.01)
        }
        guard process.isRunning else {
            let status = try process.wait()
            XCTAssertEqual(status, 0, process.stderr)
            throw XCTSkip("the batch finished before it could be stopped (\(status)): make the CSV bigger")
        }
        process.kill(SIGTERM)
        XCTAssertEqual(try process.wait(), 143, "SIGTERM ends a batch with 128 + 15: \(process.stderr)")
        XCTAssertTrue(process.stderr.contains("interrupted by SIGTERM; \(first.count + more.count) rows: "), process.stderr)
        let createdBeforeStop = try journalCount(journal, "status='created'")
        XCTAssertTrue(process.stderr.contains("\(createdBeforeStop) created, \(first.count) exists"), process.stderr)
        XCTAssertGreaterThan(try journalCount(journal, "generated_password IS NOT NULL"), first.count,
                             "an unfinished journal holds the passwords made so far")

        // Without --resume the unfinished journal is refused, and the message protects it.
        let refused = try t.run("xmpp-register", ["batch"] + args)
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("continue it with --resume; keep that file: it holds the only copy of"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("remove"), refused.stderr)

        // 5. --resume finishes; every password in the final report logs in.
        let resumed = try t.run("xmpp-register", ["batch"] + args + ["--resume"], timeout: 180)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        let rows = try Self.report(report)
        XCTAssertEqual(rows.count, first.count + more.count)
        XCTAssertEqual(rows.filter { $0["status"] == "exists" }.count, first.count)
        XCTAssertEqual(rows.filter { $0["status"] == "created" }.count, more.count)
        let final = passwords(rows)
        XCTAssertEqual(final.count, rows.count, "every row has its password")
        for (jid, password) in original { XCTAssertEqual(final[jid], password, "\(jid) kept its first password") }
        XCTAssertEqual(try journalCount(journal, "generated_password IS NOT NULL"), 0)
        let checker = try ToolRunner(server: t.server)
        for (jid, password) in final.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(try checker.run("xmpp-login", [jid] + t.serverArgs, password: password).status, 0, "\(jid): the report's password logs in")
        }
    }

    /// A report that holds passwords of accounts the next batch does not list keeps them: the
    /// second batch's report holds both accounts' passwords (issue 29: a removed row).
    func testAReportKeepsThePasswordsOfRowsNoLongerListed() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let report = t.home + "/shared-report.csv"
        let one = t.home + "/one.csv", two = t.home + "/two.csv"
        try writeCSV(one, [ToolRunner.username("ra")])
        try writeCSV(two, [ToolRunner.username("rb")])
        let base = ["--domain", t.server.domain, "--generate-passwords", "--report", report] + t.serverArgs
        XCTAssertEqual(try t.run("xmpp-register", ["batch", one] + base).status, 0)
        let before = passwords(try Self.report(report))
        let second = try t.run("xmpp-register", ["batch", two] + base)
        XCTAssertEqual(second.status, 0, second.stderr)
        let after = try Self.report(report)
        for (jid, password) in before { XCTAssertEqual(passwords(after)[jid], password, "\(jid)'s password is kept") }
        XCTAssertEqual(after.filter { $0["status"] == "kept" }.count, before.count)
        XCTAssertEqual(after.filter { $0["status"] == "created" }.count, 1)
    }

    /// An account that exists but is not this batch's: no password is invented for it.
    func testAnExistingAccountGetsNoNeverSetPassword() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (jid, password) = try t.makeAccount("ne")
        let csv = t.home + "/ne.csv", report = t.home + "/ne-report.csv"
        try writeCSV(csv, [String(jid.split(separator: "@")[0])])
        let base = [csv, "--domain", t.server.domain, "--generate-passwords", "--report", report] + t.serverArgs
        let skip = try t.run("xmpp-register", ["batch"] + base + ["--json"])
        XCTAssertEqual(skip.status, 0, skip.stderr)
        XCTAssertEqual(try BatchEndToEndTests.statuses(skip), [2: "exists"])
        XCTAssertEqual(try Self.report(report).first?["password"], "", "the password made for the request was never set")
        let update = try t.run("xmpp-register", ["batch"] + base + ["--on-exists", "update", "--json"])
        XCTAssertEqual(update.status, 1, update.stderr)
        XCTAssertEqual(try BatchEndToEndTests.rows(update)[2]?["error"] as? String,
                       "the account exists and its password is unknown (the CSV gives none, and no earlier report of this batch holds one), so it was not updated")
        XCTAssertEqual(try Self.report(report).first?["password"], "")
        XCTAssertEqual(try ToolRunner(server: t.server).run("xmpp-login", [jid] + t.serverArgs, password: password).status, 0,
                       "the account keeps its own password")
    }
}
