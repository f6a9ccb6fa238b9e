import Foundation
import XCTest

/// `xmpp-register sync --adopt`: a class made on day 1 by `batch` goes under sync with no account
/// created again and no password changed (its report is sync's report), and an account made by
/// hand (no password anywhere) is adopted for what the administrator can do: the plan says its
/// profile and roster are not read, and it is removed like any managed leaver.
final class SyncAdoptEndToEndTests: XCTestCase {
    func testABatchMadeClassAndAHandMadeAccountAreAdopted() throws {
        let s = try SyncSetting()
        let (admin, t, domain) = (s.admin, s.t, s.domain)
        let users = (0..<4).map { "ad\(s.tag)x\($0)" }
        let hand = try admin.makeAccount("adh")
        let handUser = String(hand.jid.split(separator: "@")[0])
        let csv = t.home + "/day1.csv", report = t.home + "/day1-pw.csv"
        func write(_ rows: [String]) throws {
            try Data(("username,fullname,groups,contacts\r\n" + rows.map { "\($0),Name \($0),Class,Class\r\n" }.joined()).utf8)
                .write(to: URL(fileURLWithPath: csv))
        }
        try write(users)
        let batch = try t.run("xmpp-register", ["batch", csv, "--admin", "--generate-passwords", "--report", report, "--domain", domain] + t.serverArgs,
                              timeout: 120)
        XCTAssertEqual(batch.status, 0, batch.stderr)
        let before = try SyncEndToEndTests.reportPasswords(report)
        try write(users + [handUser])
        func sync(_ extra: [String]) throws -> RunResult { try s.sync(csv, report: report, extra) }
        // Without --adopt, the refresh finds them: nothing is created, and the plan names --adopt.
        let unadopted = try sync(["--dry-run"])
        XCTAssertEqual(unadopted.status, 0, unadopted.stdout + unadopted.stderr)
        XCTAssertTrue(unadopted.stdout.contains("skip     \(users[0])@\(domain)  (it existed before sync: not managed, left alone; --adopt manages it)"),
                      unadopted.stdout)
        XCTAssertFalse(unadopted.stdout.contains("create "), unadopted.stdout)
        let plan = try sync(["--adopt", "--dry-run", "--json"])
        XCTAssertEqual(plan.status, 13, plan.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
        let adopt = json["adopt"] as? [[String: Any]] ?? []
        XCTAssertEqual(Set(adopt.compactMap { $0["jid"] as? String }), Set((users + [handUser]).map { "\($0)@\(domain)" }))
        XCTAssertEqual(adopt.first { $0["jid"] as? String == hand.jid }?["password"] as? Bool, false)
        XCTAssertEqual(adopt.filter { $0["password"] as? Bool == true }.count, 4)
        XCTAssertEqual((json["create"] as? [Any])?.count, 0, "nothing created again: \(plan.stdout)")
        XCTAssertEqual((json["drift"] as? [Any])?.count, 0, "the batch's rosters are complete: \(plan.stdout)")
        let text = try sync(["--adopt", "--dry-run"])
        XCTAssertTrue(text.stdout.contains("adopt    \(hand.jid)  (it existed before sync: managed from now on; nothing created again, no password "
                                           + "changed; no password for it in the report, --adopt-report or the file"), text.stdout)

        let applied = try sync(["--adopt"])
        XCTAssertEqual(applied.status, 13, applied.stderr)
        let after = try SyncEndToEndTests.reportPasswords(report)
        for user in users {
            let jid = "\(user)@\(domain)"
            XCTAssertEqual(after[jid], before[jid], "no password changed")
            XCTAssertTrue(try admin.logsIn(jid, try XCTUnwrap(before[jid])))
        }
        XCTAssertTrue(try admin.logsIn(hand.jid, hand.password), "the hand-made account keeps its password")
        let again = try sync(["--dry-run"])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertTrue(again.stdout.contains("unverified \(hand.jid)"), again.stdout)

        // Managed now: the hand-made account leaving the file is removed like any leaver.
        try write(users)
        let pruned = try sync(["--prune", "delete"])
        XCTAssertEqual(pruned.status, 13, pruned.stderr)
        XCTAssertFalse(try admin.logsIn(hand.jid, hand.password), "deleted")

        // A pupil logged in on the administrator's machine becomes the active account: sync says
        // which account is not an administrator.
        let pupil = "\(users[0])@\(domain)"
        let p = try admin.runner(as: pupil, password: try XCTUnwrap(before[pupil]))
        let notAdmin = try p.run("xmpp-register", ["sync", csv, "--admin", "--domain", domain, "--dry-run", "--adopt"] + p.serverArgs)
        XCTAssertEqual(notAdmin.status, 12, notAdmin.stderr)
        XCTAssertTrue(notAdmin.stderr.contains("\(pupil) is not an administrator of this server"), notAdmin.stderr)
    }

}
