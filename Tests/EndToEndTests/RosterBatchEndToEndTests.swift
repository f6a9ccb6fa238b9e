import Foundation
import XCTest

/// batch with groups and contacts columns, where registration is closed (`--admin`): every pair
/// the CSV lists ends subscribed both ways, each contact filed under its own row's groups, and
/// running the same CSV again changes nothing.
final class RosterBatchEndToEndTests: XCTestCase {
    func testGroupsAndContactsLeaveEveryPairSubscribedBothWays() throws {
        let admin = try AdminServer.require()
        let t = try admin.adminRunner()
        let tag = String(ToolRunner.username("").prefix(5))
        let domain = t.server.domain
        let teachers = (0..<6).map { "rt\(tag)\($0)@\(domain)" }
        let pupils = (0..<5).map { "rp\(tag)\($0)@\(domain)" }
        let loner = "rl\(tag)@\(domain)"
        // Teachers see each other; pupils see their class and the teachers; the loner names one
        // pupil by JID, and that pupil gets the loner back. A row naming an unknown group is invalid.
        var lines = ["jid,fullname,groups,contacts"]
        for (i, jid) in teachers.enumerated() { lines.append("\(jid),Teacher \(i),Teachers,Teachers") }
        for (i, jid) in pupils.enumerated() { lines.append("\(jid),\"Pupil, \(i)\",Class 5A,Class 5A;Teachers") }
        lines.append("\(loner),,,\(pupils[0])")
        lines.append("rx\(tag)@\(domain),,,Nobody")
        let csv = t.home + "/rosters.csv"
        try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: URL(fileURLWithPath: csv))
        let report = t.home + "/rosters-report.csv"

        let r = try t.run("xmpp-register", ["batch", csv, "--admin", "--generate-passwords", "--report", report, "--json"] + t.serverArgs,
                          timeout: 240)
        XCTAssertEqual(r.status, 1, "the invalid row makes it a partial failure: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("\(teachers.count + pupils.count + 1) rosters done"), r.stderr)
        let rows = try reportRows(report)
        XCTAssertEqual(rows["rx\(tag)@\(domain)"]?["status"], "invalid")
        XCTAssertTrue(rows["rx\(tag)@\(domain)"]?["error"]?.contains("Nobody") ?? false, "\(rows)")

        var expected: [String: [String: [String]]] = [:]  // account → contact → groups
        for a in teachers { for b in teachers where a != b { expected[a, default: [:]][b] = ["Teachers"] } }
        for a in pupils {
            for b in pupils where a != b { expected[a, default: [:]][b] = ["Class 5A"] }
            for b in teachers {
                expected[a, default: [:]][b] = ["Teachers"]
                expected[b, default: [:]][a] = ["Class 5A"]
            }
        }
        expected[loner, default: [:]][pupils[0]] = ["Class 5A"]
        expected[pupils[0], default: [:]][loner] = []

        for (account, contacts) in expected {
            let password = try XCTUnwrap(rows[account]?["password"], "no password for \(account) in the report")
            let roster = try self.roster(t, account, password)
            XCTAssertEqual(Set(roster.keys), Set(contacts.keys), "\(account)'s contacts")
            for (contact, groups) in contacts {
                XCTAssertEqual(roster[contact]?["subscription"] as? String, "both", "\(account) ↔ \(contact)")
                XCTAssertEqual(roster[contact]?["groups"] as? [String], groups, "\(account) files \(contact)")
            }
        }
        let teacherName = try roster(t, pupils[1], try XCTUnwrap(rows[pupils[1]]?["password"]))[teachers[2]]?["name"] as? String
        XCTAssertEqual(teacherName, "Teacher 2", "a contact is named by its row's fullname")

        // The same CSV again (the report carries the passwords): the accounts exist, the rosters stay.
        let again = try t.run("xmpp-register", ["batch", csv, "--admin", "--generate-passwords", "--report", report] + t.serverArgs, timeout: 240)
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertTrue(again.stderr.contains("rosters done"), again.stderr)
        let pupilRoster = try roster(t, pupils[0], try XCTUnwrap(rows[pupils[0]]?["password"]))
        XCTAssertEqual(Set(pupilRoster.keys), Set(try XCTUnwrap(expected[pupils[0]]).keys))
        XCTAssertTrue(pupilRoster.values.allSatisfy { $0["subscription"] as? String == "both" })
    }

    /// A run killed with SIGKILL in its roster passes resumes from the journal, and every pair
    /// still ends subscribed both ways.
    func testRosterPassesResumeAfterKill() throws {
        let admin = try AdminServer.require()
        let t = try admin.adminRunner()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("needs sqlite3 to watch the journal") }
        let tag = String(ToolRunner.username("").prefix(5))
        let members = (0..<16).map { "rk\(tag)\($0)@\(t.server.domain)" }
        let csv = t.home + "/kill.csv"
        try Data((["jid,groups,contacts"] + members.map { "\($0),Staff,Staff" }).joined(separator: "\n").utf8)
            .write(to: URL(fileURLWithPath: csv))
        let report = t.home + "/kill-report.csv"
        let process = try BatchChildProcess([Paths.binaries + "/xmpp-register", "batch", csv, "--admin", "--generate-passwords",
                                             "--jobs", "2", "--report", report] + t.serverArgs,
                                            environment: t.environment, captureStdout: false)
        func rosters(_ state: String) throws -> Int { try Self.journalRosters(report, state) }
        func rostersRequested() throws -> Int { try rosters("requested") }
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline, (try? rostersRequested()) ?? 0 < 3 { Thread.sleep(forTimeInterval: 0.02) }
        process.kill(SIGKILL)
        _ = try process.wait()
        let (pending, requested) = (try rosters("pending"), try rostersRequested())
        guard requested > 0, pending + requested == members.count else {
            throw XCTSkip("the kill did not land in the roster passes (\(pending) pending, \(requested) requested)")
        }

        let resumed = try t.run("xmpp-register", ["batch", csv, "--admin", "--generate-passwords", "--report", report, "--resume"]
                                + t.serverArgs, timeout: 240)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertTrue(resumed.stderr.contains("\(members.count) rosters done"), resumed.stderr)
        let rows = try reportRows(report)
        for account in members {
            let roster = try self.roster(t, account, try XCTUnwrap(rows[account]?["password"]))
            XCTAssertEqual(Set(roster.keys), Set(members.filter { $0 != account }), account)
            XCTAssertTrue(roster.values.allSatisfy { $0["subscription"] as? String == "both" }, "\(account): \(roster)")
        }
    }

    /// On a terminal the roster phase has a bar of its own for each pass (the rows' bar stood at
    /// 100 % the whole time before), and Ctrl-C in the middle of it ends the run within the
    /// manual's 3 s of awaiting (it took 75 s with a teacher's 319 contacts in one wait); --resume
    /// then finishes every pair.
    func testRosterPhaseShowsProgressAndStopsPromptlyOnCtrlC() throws {
        let admin = try AdminServer.require()
        let t = try admin.adminRunner()
        let tag = String(ToolRunner.username("").prefix(5))
        func school(_ name: String, _ count: Int) throws -> (csv: String, members: [String]) {
            let members = (0..<count).map { "r\(name)\(tag)\($0)@\(t.server.domain)" }
            let csv = t.home + "/\(name).csv"
            try Data((["jid,groups,contacts"] + members.map { "\($0),Staff \(name),Staff \(name)" }).joined(separator: "\n").utf8)
                .write(to: URL(fileURLWithPath: csv))
            return (csv, members)
        }
        // script(1) gives the batch a terminal as stderr.
        let small = try school("g", 8)
        let command = ([Paths.binaries + "/xmpp-register", "batch", small.csv, "--admin", "--generate-passwords",
                        "--report", t.home + "/g-report.csv"] + t.serverArgs).map { "'\($0)'" }.joined(separator: " ")
        let shown = try Shell.run(["/usr/bin/script", "-qefc", command, "/dev/null"], environment: t.environment, timeout: 120)
        XCTAssertEqual(shown.status, 0, shown.stdout)
        XCTAssertTrue(shown.stdout.contains("rosters, requests: 8/8 ["), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("rosters, approvals: 8/8 ["), shown.stdout)

        let big = try school("c", 40)
        let report = t.home + "/c-report.csv"
        let process = try BatchChildProcess([Paths.binaries + "/xmpp-register", "batch", big.csv, "--admin", "--generate-passwords",
                                             "--jobs", "2", "--report", report] + t.serverArgs,
                                            environment: t.environment, captureStdout: false)
        func rosters(_ state: String) throws -> Int { try Self.journalRosters(report, state) }
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline, (try? rosters("requested")) ?? 0 < 2 { Thread.sleep(forTimeInterval: 0.02) }
        let interrupted = Date()
        process.kill(SIGINT)
        let status = try process.wait()
        let took = Date().timeIntervalSince(interrupted)
        guard try rosters("pending") + rosters("requested") > 0 else {
            throw XCTSkip("the roster phase ended before the interrupt (\(process.stderr))")
        }
        XCTAssertEqual(status, 130, process.stderr)
        // The manual's 3 s of awaiting, plus the report and the summary; the old single wait took 75 s.
        XCTAssertLessThan(took, 5, "Ctrl-C took \(took) s to end the roster phase")

        let resumed = try t.run("xmpp-register", ["batch", big.csv, "--admin", "--generate-passwords", "--report", report, "--resume"]
                                + t.serverArgs, timeout: 240)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertTrue(resumed.stderr.contains("\(big.members.count) rosters done"), resumed.stderr)
        let rows = try reportRows(report)
        for account in big.members.prefix(5) {
            let roster = try self.roster(t, account, try XCTUnwrap(rows[account]?["password"]))
            XCTAssertEqual(Set(roster.keys), Set(big.members.filter { $0 != account }), account)
            XCTAssertTrue(roster.values.allSatisfy { $0["subscription"] as? String == "both" }, "\(account): \(roster)")
        }
    }

    /// The administrator resets a pupil's password (passwd --admin) after the batch: the report
    /// still holds the old one. A later run that has to log in as that pupil (a new classmate)
    /// says the password was refused and where the current one goes, and its summary does not
    /// call the rosters done; passwd --admin --report puts the new one in the report, and the
    /// run finishes.
    func testAPasswordResetByTheAdministratorIsNamedAndTheReportTakesTheNewOne() throws {
        let admin = try AdminServer.require()
        let t = try admin.adminRunner()
        let tag = String(ToolRunner.username("").prefix(5))
        let members = (0..<4).map { "rw\(tag)\($0)@\(t.server.domain)" }
        let csv = t.home + "/reset.csv"
        func write(_ count: Int) throws {
            try Data((["jid,groups,contacts"] + members.prefix(count).map { "\($0),G,G" }).joined(separator: "\n").utf8)
                .write(to: URL(fileURLWithPath: csv))
        }
        let report = t.home + "/reset-report.csv"
        let slips = t.home + "/slips"
        let args = ["batch", csv, "--admin", "--generate-passwords", "--report", report, "--report-by-group", slips] + t.serverArgs
        try write(3)
        let first = try t.run("xmpp-register", args, timeout: 120)
        XCTAssertEqual(first.status, 0, first.stderr)
        let old = try XCTUnwrap(try reportRows(report)[members[0]]?["password"])
        let reset = try t.run("xmpp-register", ["passwd", "--admin", members[0], "--password-stdin"] + t.serverArgs,
                              stdin: "the-new-password-1\n")
        XCTAssertEqual(reset.status, 0, reset.stderr)

        try write(4)
        let refused = try t.run("xmpp-register", args, timeout: 120)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("\(members[0]): roster not set: the server refused this batch's password"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("put the current one in the report's password column"), refused.stderr)
        XCTAssertEqual(refused.stderr.components(separatedBy: "roster not set").count, 2, "said once, not once per pass")
        XCTAssertTrue(refused.stderr.contains("3 rosters set, 1 roster failed"), "not 'done' while a pair is one-sided: \(refused.stderr)")

        // The way the man page gives: the administrator resets it again, naming the report.
        XCTAssertEqual(try reportRows(report)[members[0]]?["password"], old)
        let again = try t.run("xmpp-register", ["passwd", "--admin", members[0], "--password-stdin", "--report", report] + t.serverArgs,
                              stdin: "the-new-password-2\n")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try reportRows(report)[members[0]]?["password"], "the-new-password-2")
        let fixed = try t.run("xmpp-register", args, timeout: 120)
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        XCTAssertTrue(fixed.stderr.contains("4 rosters done"), fixed.stderr)
        // The split by group (issue 27 item 7) follows the report: the class's file has every
        // member, with the password that works now.
        let classFile = try String(contentsOfFile: slips + "/group-G.csv", encoding: .utf8)
        // In the input's dialect (issue 38): this CSV's lines end in LF.
        XCTAssertEqual(classFile.split(separator: "\n").count, 5, classFile)
        XCTAssertFalse(classFile.contains("\r"), classFile)
        XCTAssertTrue(classFile.contains("the-new-password-2"), classFile)
        let roster = try self.roster(t, members[0], "the-new-password-2")
        XCTAssertEqual(Set(roster.keys), Set(members.dropFirst()))
        XCTAssertTrue(roster.values.allSatisfy { $0["subscription"] as? String == "both" }, "\(roster)")
    }

    /// The report's rows by JID, each as column → value.
    private func reportRows(_ path: String) throws -> [String: [String: String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var records = text.split(separator: "\r\n").map { line -> [String] in
            // RFC 4180 as the report writes it; no field here holds a doubled quote.
            var fields: [String] = []
            var current = ""
            var quoted = false
            for ch in line {
                if ch == "\"" { quoted.toggle() } else if ch == "," && !quoted { fields.append(current); current = "" } else { current.append(ch) }
            }
            fields.append(current)
            return fields
        }
        let header = records.removeFirst()
        var rows: [String: [String: String]] = [:]
        for record in records {
            var row: [String: String] = [:]
            for (name, value) in zip(header, record) { row[name] = value }
            rows[row["jid"] ?? ""] = row
        }
        return rows
    }

    /// `account`'s roster as contact → its JSON object, read with the account's password.
    private func roster(_ t: ToolRunner, _ account: String, _ password: String) throws -> [String: [String: Any]] {
        let r = try t.run("xmpp-roster", ["list", "--no-presence", "--json", "-a", account] + t.serverArgs, password: password)
        XCTAssertEqual(r.status, 0, r.stderr)
        let list = try XCTUnwrap(try ToolRunner.json(r) as? [[String: Any]])
        var byJID: [String: [String: Any]] = [:]
        for contact in list { byJID[contact["jid"] as? String ?? ""] = contact }
        return byJID
    }

    /// How many rows of `report`'s journal have roster state `state`, read while the batch runs:
    /// read-only, and only once it exists (sqlite3 would create an empty file the batch then refuses).
    static func journalRosters(_ report: String, _ state: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: report + ".journal") else { return 0 }
        let r = try Shell.run(["/usr/bin/sqlite3", "-readonly", report + ".journal",
                               "SELECT count(*) FROM journal_rows WHERE roster='\(state)'"], timeout: 10)
        return Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}
