import Foundation
import XCTest

/// batch --admin where registration is closed: a few hundred rows of awkward CSV become exactly
/// the good accounts, a run killed with SIGKILL resumes without doing a row twice, passwords are
/// changed and accounts deleted; an account that is not an administrator gets status 12.
final class AdminBatchEndToEndTests: XCTestCase {
    private func write(_ t: ToolRunner, _ name: String, _ bytes: [UInt8]) throws -> String {
        let path = t.home + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// 400 rows: BOM, CRLF, quoted passwords with commas, quotes and non-ASCII, upper case,
    /// and every 25th row bad (invalid JID, missing password, duplicate, a surplus field).
    private func awkwardCSV(_ t: ToolRunner, tag: String) throws -> (path: String, good: [Int: (jid: String, password: String)], bad: Set<Int>) {
        let domain = t.server.domain
        var lines = ["password , JID"]
        var good: [Int: (String, String)] = [:]
        var bad: Set<Int> = []
        for i in 0..<400 {
            let line = i + 2
            let user = "ad\(tag)\(i)"
            switch i % 25 {
            case 3: lines.append("x,bad user\(i)@\(domain)"); bad.insert(line)
            case 7: lines.append(",\(user)@\(domain)"); bad.insert(line)
            case 11: lines.append("dup,ad\(tag)\(i - 1)@\(domain)"); bad.insert(line)
            case 17: lines.append("x,\(user)@\(domain),surplus"); bad.insert(line)
            case 19:
                lines.append("\"p,\"\"\(i)\"\"ü\",\(user.uppercased())@\(domain)")
                good[line] = (user + "@" + domain, "p,\"\(i)\"ü")
            default:
                lines.append("pw-\(i),\"\(user)@\(domain)\"")
                good[line] = (user + "@" + domain, "pw-\(i)")
            }
        }
        let path = try write(t, "admin-\(tag).csv", [0xEF, 0xBB, 0xBF] + Array((lines.joined(separator: "\r\n") + "\r\n").utf8))
        return (path, good, bad)
    }

    private func statuses(_ report: String) throws -> [Int: String] {
        var result: [Int: String] = [:]
        for line in try String(contentsOfFile: report, encoding: .utf8).split(separator: "\r\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if let n = Int(fields[0]) { result[n] = String(fields[2]) }
        }
        return result
    }

    func testAwkwardAdminBatchResumesAfterKillThenChangesAndDeletes() throws {
        let admin = try AdminServer.require()
        let t = try admin.adminRunner()
        let tag = String(ToolRunner.username("").prefix(5))
        let (csv, good, bad) = try awkwardCSV(t, tag: tag)
        let before = try admin.accountCount()
        let report = t.home + "/admin-report.csv"

        // SIGKILL part-way, then --resume.
        let process = try BatchChildProcess([Paths.binaries + "/xmpp-register", "batch", csv, "--admin", "--jobs", "2",
                                             "--report", report] + t.serverArgs, environment: t.environment, captureStdout: false)
        let deadline = Date().addingTimeInterval(60)
        while try admin.accountCount() < before + 40, process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        process.kill(SIGKILL)
        _ = try process.wait()
        let madeBeforeKill = try admin.accountCount() - before
        guard madeBeforeKill < good.count else { throw XCTSkip("the batch finished before the kill (\(madeBeforeKill) accounts)") }

        let resumed = try t.run("xmpp-register", ["batch", csv, "--admin", "--report", report, "--resume", "--json"] + t.serverArgs, timeout: 180)
        XCTAssertEqual(resumed.status, 1, "invalid rows make it a partial failure: \(resumed.stderr)")
        XCTAssertTrue(resumed.stderr.contains("resuming:"), resumed.stderr)
        let thisRun = try BatchEndToEndTests.statuses(resumed)
        XCTAssertTrue(thisRun.values.allSatisfy { $0 == "created" }, "resume: \(Set(thisRun.values))")
        XCTAssertLessThan(thisRun.count, good.count, "rows finished before the kill are not done again")
        let final = try statuses(report)
        XCTAssertEqual(Set(final.filter { good[$0.key] != nil }.values), ["created"])
        XCTAssertEqual(Set(final.filter { bad.contains($0.key) }.values), ["invalid"])
        XCTAssertEqual(try admin.accountCount(), before + good.count, "exactly the good rows, each once")
        for line in [21, 46, 2] {  // quoted password with comma, quotes and ü; a plain one
            let row = try XCTUnwrap(good[line])
            XCTAssertTrue(try admin.logsIn(row.jid, row.password), "\(row.jid) logs in with \(row.password)")
        }

        // Change the passwords of the first 30 good rows (and one that does not exist).
        let some = good.keys.sorted().prefix(30).compactMap { good[$0] }
        let passwd = try write(t, "passwd-\(tag).csv", Array(("jid,new_password\n" + some.map { "\($0.jid),new-\($0.password.count)" }
            .joined(separator: "\n") + "\nnobody\(tag)@\(t.server.domain),x\n").utf8))
        let changed = try t.run("xmpp-register", ["batch", passwd, "--admin", "--passwd", "--json"] + t.serverArgs)
        XCTAssertEqual(changed.status, 1, changed.stderr)
        let changedRows = try BatchEndToEndTests.rows(changed)
        XCTAssertEqual(changedRows.values.filter { $0["status"] as? String == "changed" }.count, 30)
        XCTAssertEqual(changedRows[32]?["error"] as? String, "no such account")
        XCTAssertTrue(try admin.logsIn(some[0].jid, "new-\(some[0].password.count)"))
        XCTAssertFalse(try admin.logsIn(some[0].jid, some[0].password))

        // Delete every good row, twice: the second run says "no such account".
        let delete = try write(t, "delete-\(tag).csv", Array(("jid\n" + good.values.map(\.jid).joined(separator: "\n") + "\n").utf8))
        let deleted = try t.run("xmpp-register", ["batch", delete, "--admin", "--delete", "--jobs", "4", "--json"] + t.serverArgs, timeout: 180)
        XCTAssertEqual(deleted.status, 0, deleted.stderr)
        XCTAssertEqual(Set(try BatchEndToEndTests.statuses(deleted).values), ["deleted"])
        XCTAssertEqual(try admin.accountCount(), before)
        let again = try t.run("xmpp-register", ["batch", delete, "--admin", "--delete", "--json"] + t.serverArgs, timeout: 180)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(Set(try BatchEndToEndTests.rows(again).values.map { $0["note"] as? String ?? "" }), ["no such account"])
    }

    func testANonAdministratorBatchStopsWithStatus11AndSendsNoRow() throws {
        let admin = try AdminServer.require()
        let (plain, password) = try admin.makeAccount("plain")
        let t = try ToolRunner(server: admin.server)
        XCTAssertEqual(try t.run("xmpp-login", [plain] + t.serverArgs, password: password).status, 0)
        let user = ToolRunner.username("na") + "@" + admin.server.domain
        let csv = try write(t, "na.csv", Array("jid,password\n\(user),pw\n".utf8))
        let before = try admin.accountCount()
        let r = try t.run("xmpp-register", ["batch", csv, "--admin", "--report", t.home + "/na-report.csv"] + t.serverArgs)
        XCTAssertEqual(r.status, 12, r.stderr)
        XCTAssertTrue(r.stderr.contains("not an administrator"), r.stderr)
        XCTAssertEqual(try admin.accountCount(), before)
        XCTAssertEqual(try statuses(t.home + "/na-report.csv")[2], "pending", "the row waits in the journal for --resume")
    }

    /// The administrator logged in with --server and --ca-file; a batch --admin given neither
    /// reaches the server xmpp-login remembered for the administrator's domain (it went to
    /// DOMAIN:5222 and exited 6, issue 27), for the administrator's streams and the rows' log-ins.
    /// Issue 29: a row kept after delete --admin is not created again silently with the old
    /// password: the row says so, on stderr and in the report.
    func testARowDeletedSinceTheReportSaysItIsCreatedAgain() throws {
        let admin = try AdminServer.require()
        let t = try admin.adminRunner()
        let tag = String(ToolRunner.username("").prefix(5))
        let users = (0..<2).map { "rc\(tag)\($0)@\(admin.server.domain)" }
        let csv = try write(t, "again.csv", Array(("jid\n" + users.joined(separator: "\n") + "\n").utf8))
        let report = t.home + "/again-report.csv"
        let args = ["batch", csv, "--admin", "--generate-passwords", "--report", report] + t.serverArgs
        XCTAssertEqual(try t.run("xmpp-register", args).status, 0)
        XCTAssertEqual(try t.run("xmpp-register", ["delete", users[0], "--admin", "--yes"] + t.serverArgs).status, 0)
        let again = try t.run("xmpp-register", args)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("line 2: \(users[0]): created (created again with the password the report kept"), again.stderr)
        XCTAssertEqual(try statuses(report), [2: "created", 3: "exists"])
    }

    func testAdminBatchUsesTheAdministratorsRememberedServer() throws {
        let admin = try AdminServer.require()
        let t = try admin.adminRunner()  // xmpp-login boss@localhost --server 127.0.0.1:PORT --ca-file CA
        let tag = String(ToolRunner.username("").prefix(5))
        let users = (0..<3).map { "re\(tag)\($0)@\(admin.server.domain)" }
        let csv = try write(t, "remembered.csv", Array(("jid,groups,contacts\n" + users.map { "\($0),G,G" }.joined(separator: "\n") + "\n").utf8))
        let r = try t.run("xmpp-register", ["-a", admin.adminJID, "batch", csv, "--admin", "--generate-passwords",
                                            "--report", t.home + "/remembered-report.csv"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("3 created"), r.stderr)
        XCTAssertTrue(r.stderr.contains("3 rosters done"), r.stderr)
        XCTAssertEqual(try statuses(t.home + "/remembered-report.csv").values.sorted(), ["created", "created", "created"])
    }
}
