import Foundation
import XCTest

/// A school on the server's own default configuration (`--defaults`: Prosody 13 registration by
/// invitation only, ejabberd's plain passwords and registration throttle), accounts made by the
/// administrator: 60 accounts, pupils in three classes seeing their class and the teachers, teachers
/// seeing everyone. Every pair that should see each other does, both ways, each filed under the
/// other's class (or Teachers), and no other pair does; another account logs in while the rosters
/// are being made; one more pupil later changes only the rosters it belongs in.
/// Runs in the `--defaults` passes, and in the ejabberd24 pass against ejabberd 24.12 started at
/// its defaults (CI has no `ejabberd24 --defaults` pass; the sync tests share that instance).
final class SchoolRosterEndToEndTests: XCTestCase {
    func testClassRostersOneMorePupilAndALogInMeanwhile() throws {
        let admin = try AdminServer.requireDefaults(inAnyPass: ProcessInfo.processInfo.environment["XT_SERVER"] == "ejabberd24")
        let t = try admin.adminRunner()
        let tag = String(ToolRunner.username("").prefix(5))
        let domain = t.server.domain
        let classes = ["Classe 5ᵉ A", "Class 5B", "班 5C"]
        var groupOf: [String: String] = [:]
        var nameOf: [String: String] = [:]
        var rows: [String] = []
        for i in 0..<6 {
            let jid = "st\(tag)\(i)@\(domain)"
            groupOf[jid] = "Teachers"
            nameOf[jid] = "Mme Lefèvre \(i)"
            rows.append("\(jid),\(nameOf[jid]!),Teachers,\"\(classes.joined(separator: ";"));Teachers\"")
        }
        func pupilRow(_ c: Int, _ p: Int) -> String {
            let jid = "sp\(tag)\(c)-\(p)@\(domain)"
            groupOf[jid] = classes[c]
            nameOf[jid] = "Zoë 山田 \(c)-\(p)"
            return "\(jid),\(nameOf[jid]!),\(classes[c]),\"\(classes[c]);Teachers\""
        }
        for c in 0..<3 { for p in 0..<18 { rows.append(pupilRow(c, p)) } }
        XCTAssertEqual(rows.count, 60)
        let csv = t.home + "/school.csv"
        func write(_ rows: [String]) throws {
            try Data(("\u{FEFF}jid,fullname,groups,contacts\r\n" + rows.joined(separator: "\r\n") + "\r\n").utf8)
                .write(to: URL(fileURLWithPath: csv))
        }
        try write(rows)
        let report = t.home + "/school-report.csv"
        let visitor = try admin.makeAccount("sv")

        let process = try BatchChildProcess([Paths.binaries + "/xmpp-register", "batch", csv, "--admin", "--generate-passwords",
                                             "--report", report] + t.serverArgs,
                                            environment: t.environment, captureStdout: false)
        func rostersUnfinished() throws -> Int {
            guard FileManager.default.fileExists(atPath: report + ".journal") else { return -1 }
            let r = try Shell.run(["/usr/bin/sqlite3", "-readonly", report + ".journal",
                                   "SELECT count(*) FROM journal_rows WHERE roster='requested' OR roster='pending'",
                                   "SELECT count(*) FROM journal_rows WHERE roster IS NOT NULL AND roster<>'pending'"], timeout: 10)
            let counts = r.stdout.split(separator: "\n").compactMap { Int($0) }
            guard counts.count == 2, counts[1] > 0 else { return -1 }  // the roster phase has not begun
            return counts[0]
        }
        // Once the first account's roster pass is recorded, the visitor logs in.
        let deadline = Date().addingTimeInterval(180)
        while process.isRunning, Date() < deadline, (try? rostersUnfinished()) ?? -1 < 0 { Thread.sleep(forTimeInterval: 0.02) }
        let loggedIn = try admin.logsIn(visitor.jid, visitor.password)  // in a home of its own
        let unfinishedAfterLogin = try rostersUnfinished()
        let status = try process.wait()
        let stderr = (try? String(contentsOfFile: process.stderrPath, encoding: .utf8)) ?? ""
        XCTAssertTrue(loggedIn, "the visitor's log-in while the rosters were made")
        XCTAssertGreaterThan(unfinishedAfterLogin, 0, "the log-in ended during the roster phase, not after it")
        XCTAssertEqual(status, 0, stderr)
        XCTAssertTrue(stderr.contains("60 rosters done"), stderr)

        try checkRosters(t, report: report, groupOf: groupOf, nameOf: nameOf)

        // One more pupil in the first class: its roster, its class's and the teachers' change; the
        // other classes' pupils are not logged in to.
        rows.append(pupilRow(0, 18))
        try write(rows)
        let more = try t.run("xmpp-register", ["batch", csv, "--admin", "--generate-passwords", "--report", report] + t.serverArgs,
                             timeout: 240)
        XCTAssertEqual(more.status, 0, more.stderr)
        XCTAssertTrue(more.stderr.contains("61 rosters done (36 unchanged since an earlier run)"), more.stderr)
        try checkRosters(t, report: report, groupOf: groupOf, nameOf: nameOf)
    }

    /// Every account's roster is exactly its class and the teachers (a teacher's: everyone), each
    /// contact subscribed both ways, named by its full name and filed under its own group.
    private func checkRosters(_ t: ToolRunner, report: String, groupOf: [String: String], nameOf: [String: String]) throws {
        let passwords = try reportPasswords(report)
        for (account, group) in groupOf {
            let expected = Set(groupOf.keys.filter { other in
                other != account && (group == "Teachers" || groupOf[other] == "Teachers" || groupOf[other] == group)
            })
            let password = try XCTUnwrap(passwords[account], "no password for \(account) in the report")
            let r = try t.run("xmpp-roster", ["list", "--no-presence", "--json", "-a", account] + t.serverArgs, password: password)
            XCTAssertEqual(r.status, 0, r.stderr)
            let list = try XCTUnwrap(try ToolRunner.json(r) as? [[String: Any]])
            var roster: [String: [String: Any]] = [:]
            for item in list { roster[item["jid"] as? String ?? ""] = item }
            XCTAssertEqual(Set(roster.keys), expected, "\(account)'s contacts")
            for contact in expected {
                XCTAssertEqual(roster[contact]?["subscription"] as? String, "both", "\(account) ↔ \(contact)")
                XCTAssertEqual(roster[contact]?["groups"] as? [String], [groupOf[contact] ?? ""], "\(account) files \(contact)")
                XCTAssertEqual(roster[contact]?["name"] as? String, nameOf[contact], "\(account) names \(contact)")
            }
        }
    }

    /// The report's password of each JID (its first two columns are jid and password here).
    private func reportPasswords(_ path: String) throws -> [String: String] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try XCTUnwrap(lines.first, "an empty report")
        let j = try XCTUnwrap(header.firstIndex(of: "jid"), "\(header)")
        let p = try XCTUnwrap(header.firstIndex(of: "password"), "\(header)")
        var out: [String: String] = [:]
        for fields in lines.dropFirst() where fields.count > max(j, p) { out[fields[j]] = fields[p] }
        return out
    }
}
