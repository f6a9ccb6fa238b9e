import Foundation
import XCTest

/// batch --invite and xmpp-register --invite on a Prosody whose registration is by invitation only.
final class InviteEndToEndTests: XCTestCase {
    func testBatchInvitesAreRedeemedAndTheAccountsLogIn() throws {
        let admin = try AdminServer.requireInvites()
        let t = try admin.adminRunner()
        let users = (0..<5).map { _ in ToolRunner.username("inv") }
        let csv = t.home + "/invites.csv"
        try Data(("username\n" + users.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: csv))
        let report = t.home + "/invites-report.csv"
        let r = try t.run("xmpp-register", ["batch", csv, "--domain", admin.server.domain, "--invite", "--report", report, "--json"] + t.serverArgs)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(Set(try BatchEndToEndTests.statuses(r).values), ["invited"])
        XCTAssertFalse(r.stdout.contains("preauth="), "invites appear in the report only")
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertEqual(lines.first, ["line", "jid", "status", "error", "profile", "invite", "landing_page", "note"])
        XCTAssertEqual(lines.count, 6)
        let mode = try FileManager.default.attributesOfItem(atPath: report)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)

        let plain = try ToolRunner(server: admin.server).run("xmpp-register", [users[0] + "@" + admin.server.domain] + t.serverArgs, password: "pw")
        XCTAssertNotEqual(plain.status, 0, "without an invite, registration is refused")
        for (i, row) in lines.dropFirst().enumerated() {
            let jid = row[1], uri = row[5]
            XCTAssertTrue(uri.hasPrefix("xmpp:" + admin.server.domain + "?register;preauth="), uri)
            let user = try ToolRunner(server: admin.server)
            let redeem = try user.run("xmpp-register", [jid, "--invite", uri] + t.serverArgs, password: "pw-\(i)")
            XCTAssertEqual(redeem.status, 0, redeem.stderr)
            XCTAssertTrue(try admin.logsIn(jid, "pw-\(i)"))
            if i == 0 {
                let reuse = try user.run("xmpp-register", [ToolRunner.username("again") + "@" + admin.server.domain, "--invite", uri] + t.serverArgs, password: "pw")
                XCTAssertEqual(reuse.status, 8, "a used invite is refused: \(reuse.stderr)")
                let other = try user.run("xmpp-register", ["x@elsewhere.example", "--invite", uri] + t.serverArgs, password: "pw")
                XCTAssertEqual(other.status, 2, other.stderr)
            }
        }
        let bad = try t.run("xmpp-register", [ToolRunner.username("b") + "@" + admin.server.domain, "--invite", "https://example.org/x"] + t.serverArgs, password: "pw")
        XCTAssertEqual(bad.status, 9, bad.stderr)
    }

    func testOnlyAnAdministratorMayCreateAccountInvites() throws {
        let admin = try AdminServer.requireInvites()
        let (plain, password) = try admin.makeAccount("plain")
        let t = try ToolRunner(server: admin.server)
        XCTAssertEqual(try t.run("xmpp-login", [plain] + t.serverArgs, password: password).status, 0)
        let csv = t.home + "/i.csv"
        try Data("username\nsomeone\n".utf8).write(to: URL(fileURLWithPath: csv))
        let r = try t.run("xmpp-register", ["batch", csv, "--domain", admin.server.domain, "--invite", "--report", t.home + "/i-r.csv"] + t.serverArgs)
        XCTAssertEqual(r.status, 12, r.stderr)
    }
}
