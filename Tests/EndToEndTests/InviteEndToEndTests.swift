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

    /// xmpp-register invite: the URI alone into a pipe, its QR code on a terminal (read back
    /// with zbarimg from the half blocks), and a refusal for an account that is no administrator.
    func testOneInviteIsPrintedAsAQRCodeOnATerminalAndAsItsURIInAPipe() throws {
        let admin = try AdminServer.requireInvites()
        let t = try admin.adminRunner()
        let piped = try t.run("xmpp-register", ["invite"] + t.serverArgs)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        let uri = piped.stdout.trimmingCharacters(in: .newlines)
        XCTAssertTrue(uri.hasPrefix("xmpp:" + admin.server.domain + "?register;preauth="), piped.stdout)
        XCTAssertFalse(uri.contains("\n"), "the URI alone")
        let user = ToolRunner.username("qr") + "@" + admin.server.domain
        let redeem = try ToolRunner(server: admin.server).run("xmpp-register", [user, "--invite", uri] + t.serverArgs, password: "pw-qr")
        XCTAssertEqual(redeem.status, 0, redeem.stderr)

        // script(1) gives the program a terminal for its standard output.
        let command = ([Paths.binaries + "/xmpp-register", "invite"] + t.serverArgs).map { "'" + $0 + "'" }.joined(separator: " ")
        let onTTY = try Shell.run(["/usr/bin/script", "-qec", command, "/dev/null"], environment: t.environment)
        XCTAssertEqual(onTTY.status, 0, onTTY.stdout)
        let lines = onTTY.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let shown = try XCTUnwrap(lines.first { $0.hasPrefix("xmpp:") })
        XCTAssertNotEqual(shown, uri, "a new invite each time")
        let code = lines.filter { line in !line.isEmpty && line.unicodeScalars.allSatisfy { " \u{2580}\u{2584}\u{2588}".unicodeScalars.contains($0) } }
        XCTAssertGreaterThan(code.count, 10, onTTY.stdout)
        // Half blocks to a PBM, blocks light (the code is drawn for a light-on-dark terminal), 4 pixels a module.
        let width = code.map { $0.unicodeScalars.count }.max() ?? 0
        var rows: [String] = []
        for line in code {
            let cells = Array(line.unicodeScalars) + Array(repeating: " ", count: width - line.unicodeScalars.count)
            for half in 0..<2 {
                let bits = cells.map { cell -> String in
                    let lit = half == 0 ? (cell == "\u{2588}" || cell == "\u{2580}") : (cell == "\u{2588}" || cell == "\u{2584}")
                    return lit ? "0" : "1"
                }
                let scaled = bits.flatMap { Array(repeating: $0, count: 4) }.joined(separator: " ")
                rows += Array(repeating: scaled, count: 4)
            }
        }
        let pbm = t.home + "/code.pbm"
        try Data(("P1\n\(width * 4) \(rows.count)\n" + rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: pbm))
        let scanned = try Shell.run(["/usr/bin/zbarimg", "--quiet", "--raw", pbm], environment: ["PATH": "/usr/bin:/bin", "HOME": t.home])
        XCTAssertEqual(scanned.status, 0, scanned.stderr)
        XCTAssertEqual(scanned.stdout.trimmingCharacters(in: .newlines), shown, "the terminal's code scans to the URI printed under it")

        let (plain, password) = try admin.makeAccount("plain")
        let other = try ToolRunner(server: admin.server)
        XCTAssertEqual(try other.run("xmpp-login", [plain] + t.serverArgs, password: password).status, 0)
        let refused = try other.run("xmpp-register", ["invite"] + t.serverArgs)
        XCTAssertEqual(refused.status, 12, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("not an administrator"), refused.stderr)
    }
}
