import Foundation
import XCTest

/// `xmpp-register sync --invite --report-by-group`: on Prosody 13 at its defaults (Debian's
/// configuration loads mod_invites_adhoc) the new accounts are made, their rosters set, and
/// each gets a password-reset invite bound to its address; the report and the per-class files
/// carry the invites and the day each account was created; handout's slips scan back to
/// exactly those invites; one redeemed sets the person's own password. A later sync keeps the
/// earlier rows' dates and dates only the new account. On ejabberd 24.12, which has no invites,
/// sync --invite stops before anything is sent, naming the server and the ways forward.
final class SyncInviteEndToEndTests: XCTestCase {
    func testNewAccountsAreHandedOutAsInvitesThatScanBackFromTheSlips() throws {
        let s = try SyncSetting()
        let (admin, t, domain) = (s.admin, s.t, s.domain)
        let pupils = s.jids("iv", 3)
        func csvText(_ rows: [String]) -> String {
            "username,fullname,groups,contacts\r\n" + rows.enumerated().map { i, p in
                "\(p.split(separator: "@")[0]),Schülerin \(i) 学生,Klasse \(min(i, 1)),Klasse \(min(i, 1))\r\n"
            }.joined()
        }
        let csv = t.home + "/class.csv", report = t.home + "/class-pw.csv", byGroup = t.home + "/classes"
        try Data(csvText(Array(pupils.prefix(2))).utf8).write(to: URL(fileURLWithPath: csv))
        func sync() throws -> RunResult {
            try t.run("xmpp-register", ["sync", csv, "--admin", "--report", report, "--report-by-group", byGroup, "--invite",
                                        "--domain", domain] + t.serverArgs, timeout: 120)
        }

        guard admin.server.kind.hasPrefix("prosody") else {
            let refused = try sync()
            XCTAssertEqual(refused.status, 4, refused.stderr)
            XCTAssertTrue(refused.stderr.contains("\(domain)'s server offers boss@\(domain) no password-reset invites"), refused.stderr)
            XCTAssertTrue(refused.stderr.contains("nothing was changed") && refused.stderr.contains("run sync without --invite"), refused.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: report), "stopped before anything was sent or written")
            XCTAssertFalse(try admin.logsIn(pupils[0], "anything"))
            return
        }

        let first = try sync()
        XCTAssertEqual(first.status, 13, first.stderr)
        XCTAssertTrue(first.stderr.contains("2 invites made"), first.stderr)
        let today = Self.today()
        var rows = try BatchPasswordFlowEndToEndTests.report(report)
        XCTAssertEqual(rows.count, 2)
        var invites: [String: String] = [:]
        for row in rows {
            let jid = try XCTUnwrap(row["jid"])
            let uri = try XCTUnwrap(row["invite"])
            XCTAssertTrue(uri.hasPrefix("xmpp:\(jid)?register;preauth="), "bound to the account's own address: \(uri)")
            XCTAssertFalse((row["password"] ?? "").isEmpty, "sync keeps its own password for its log-ins")
            XCTAssertFalse((row["invite_expires"] ?? "").isEmpty, "the server says when it expires")
            XCTAssertEqual(row["created"], today)
            invites[jid] = uri
        }
        let passwords = try SyncEndToEndTests.reportPasswords(report)
        // Class files, with the invites.
        let classFile = byGroup + "/group-Klasse 0.csv"
        let classText = try String(contentsOfFile: classFile, encoding: .utf8)
        XCTAssertTrue(classText.contains(invites[pupils[0]] ?? "?") && !classText.contains(invites[pupils[1]] ?? "?"), classText)

        // The slips show the invites as QR codes, which scan back to exactly the report's.
        let pdf = t.home + "/slips.pdf"
        let handout = try t.run("xmpp-register", ["handout", report, "-o", pdf])
        XCTAssertEqual(handout.status, 0, handout.stderr)
        XCTAssertEqual(try HandoutEndToEndTests.decodedCodes(pdf, in: t.home + "/pages").sorted(), invites.values.sorted())
        // The first page, for a person to look at (.build/test-artifacts/).
        let artifact = HandoutEndToEndTests.artifacts + "/handout-sync-invites.png"
        try? FileManager.default.removeItem(atPath: artifact)
        let firstPage = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: t.home + "/pages").sorted().first)
        try FileManager.default.copyItem(atPath: t.home + "/pages/" + firstPage, toPath: artifact)
        let text = try HandoutEndToEndTests.text(pdf)
        XCTAssertTrue(text.contains("Schülerin 0 学生"), text)
        XCTAssertFalse(text.contains(passwords[pupils[0]] ?? "?"), "the slip shows the invite, not sync's password")
        // When the invite stops working, as the report's invite_expires says (2026-12-05T21:35:08Z: 2026-12-05 21:35 UTC).
        let expires = try XCTUnwrap(rows.first?["invite_expires"])
        let shown = String(expires.prefix(10)) + " " + String(expires.dropFirst(11).prefix(5)) + " UTC"
        XCTAssertTrue(text.contains("before " + shown), "\(shown) in:\n\(text)")

        // The person opens the invite: their own password replaces sync's.
        let own = "mine-" + UUID().uuidString
        let redeem = try ToolRunner(server: admin.server).run("xmpp-register", [pupils[0], "--invite", invites[pupils[0]] ?? ""] + t.serverArgs,
                                                               password: own)
        XCTAssertEqual(redeem.status, 0, redeem.stderr)
        XCTAssertTrue(try admin.logsIn(pupils[0], own))
        XCTAssertFalse(try admin.logsIn(pupils[0], passwords[pupils[0]] ?? ""))

        // A pupil joins: only that row is dated today; the others keep their first-created day.
        var earlier = try String(contentsOfFile: report, encoding: .utf8)
        earlier = earlier.replacingOccurrences(of: ",\(today)(?=,|\r)", with: ",2026-09-01", options: .regularExpression)
        try Data(earlier.utf8).write(to: URL(fileURLWithPath: report))
        try Data(csvText(pupils).utf8).write(to: URL(fileURLWithPath: csv))
        let second = try sync()
        XCTAssertEqual(second.status, 13, second.stderr)
        XCTAssertTrue(second.stderr.contains("1 invite made"), second.stderr)
        rows = try BatchPasswordFlowEndToEndTests.report(report)
        let created = Dictionary(uniqueKeysWithValues: rows.map { ($0["jid"] ?? "", $0["created"] ?? "") })
        XCTAssertEqual(created, [pupils[0]: "2026-09-01", pupils[1]: "2026-09-01", pupils[2]: today])
        XCTAssertEqual(rows.first { $0["jid"] == pupils[1] }?["invite"], invites[pupils[1]], "an unused invite stays in the report")
        let classOne = try String(contentsOfFile: byGroup + "/group-Klasse 1.csv", encoding: .utf8)
        XCTAssertTrue(classOne.contains(",2026-09-01") && classOne.contains("," + today), classOne)
        // Pupil 1 has not used its invite: sync still logs in as it, and its class roster grew.
        let roster = try t.run("xmpp-roster", ["list", "-a", pupils[1]] + t.serverArgs, password: passwords[pupils[1]])
        XCTAssertEqual(roster.status, 0, roster.stderr)
        XCTAssertTrue(roster.stdout.contains(pupils[2]), roster.stdout)
        let next = try t.run("xmpp-register", ["handout", report, "-o", pdf])
        XCTAssertEqual(next.status, 0, next.stderr)
        let newRow = try XCTUnwrap(rows.first { $0["jid"] == pupils[2] }?["invite"])
        XCTAssertEqual(try HandoutEndToEndTests.decodedCodes(pdf, in: t.home + "/pages2"), [newRow], "only the new pupil's slip")

        // Nothing changed: no report is written, nor a split asked for only now, and sync says so.
        let unchanged = try t.run("xmpp-register", ["sync", csv, "--admin", "--report", report, "--report-by-group", t.home + "/later",
                                                    "--domain", domain] + t.serverArgs, timeout: 120)
        XCTAssertEqual(unchanged.status, 0, unchanged.stderr)
        XCTAssertTrue(unchanged.stderr.contains("\(t.home)/later was not written"), unchanged.stderr)
    }

    static func today() -> String {
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd"
        return f.string(from: Date())
    }
}
