import Foundation
import XCTest

/// xmpp-register JID --admin, passwd JID --admin and delete JID --admin where registration is closed.
final class AdminRegisterEndToEndTests: XCTestCase {
    func testCreateChangeAndDeleteOneAccountAsAdministrator() throws {
        let admin = try AdminServer.require()
        let t = try admin.adminRunner()
        let jid = ToolRunner.username("one") + "@" + admin.server.domain
        let closed = try ToolRunner(server: admin.server).run("xmpp-register", [jid] + t.serverArgs, password: "pw1")
        XCTAssertNotEqual(closed.status, 0, "in-band registration is closed")

        XCTAssertEqual(try t.run("xmpp-register", [jid, "--admin"], password: "pw1").status, 0)
        XCTAssertTrue(try admin.logsIn(jid, "pw1"))
        let again = try t.run("xmpp-register", [jid, "--admin"], password: "pw1")
        XCTAssertEqual(again.status, 5, again.stderr)

        XCTAssertEqual(try t.run("xmpp-register", ["passwd", jid, "--admin"], password: "pw2").status, 0)
        XCTAssertFalse(try admin.logsIn(jid, "pw1"))
        XCTAssertTrue(try admin.logsIn(jid, "pw2"))
        let nobody = try t.run("xmpp-register", ["passwd", "nobody-" + jid, "--admin"], password: "pw2")
        XCTAssertEqual(nobody.status, 4, nobody.stderr)

        let gone = try t.run("xmpp-register", ["delete", jid, "--admin", "--yes", "--json"])
        XCTAssertEqual(gone.status, 0, gone.stderr)
        XCTAssertFalse(try admin.logsIn(jid, "pw2"))
        let twice = try t.run("xmpp-register", ["delete", jid, "--admin", "--yes", "--json"])
        XCTAssertEqual(twice.status, 0, twice.stderr)
        XCTAssertEqual((try ToolRunner.json(twice) as? [String: Any])?["note"] as? String, "no such account")
    }

    /// Where the server lists disable-user (of this matrix, Prosody 13 only), a disabled account
    /// cannot log in until it is re-enabled; elsewhere both commands say the server lacks them.
    func testDisableAndReenableWhereTheServerHasThem() throws {
        let admin = try AdminServer.require()
        let t = try admin.adminRunner()
        let listed = try t.run("xmpp-adhoc", ["list", "--json"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let nodes = Set((try ToolRunner.json(listed) as? [[String: Any]] ?? []).compactMap { $0["node"] as? String })
        let (jid, password) = try admin.makeAccount("dis")
        guard nodes.contains("http://jabber.org/protocol/admin#disable-user") else {
            for command in ["disable", "enable"] {
                let r = try t.run("xmpp-register", [command, jid])
                XCTAssertEqual(r.status, 4, r.stderr)
                XCTAssertTrue(r.stderr.contains("does not offer the administration command"), r.stderr)
            }
            XCTAssertTrue(try admin.logsIn(jid, password), "nothing was disabled")
            return
        }
        let off = try t.run("xmpp-register", ["disable", jid, "--json"])
        XCTAssertEqual(off.status, 0, off.stderr)
        XCTAssertEqual((try ToolRunner.json(off) as? [String: Any])?["status"] as? String, "disabled")
        let refused = try ToolRunner(server: admin.server).run("xmpp-login", [jid] + t.serverArgs, password: password)
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertEqual(try t.run("xmpp-register", ["enable", jid]).status, 0)
        XCTAssertTrue(try admin.logsIn(jid, password), "re-enabled")
        for command in ["disable", "enable"] {
            let r = try t.run("xmpp-register", [command, "nobody-" + jid])
            XCTAssertEqual(r.status, 4, r.stderr)
            XCTAssertTrue(r.stderr.contains("no such account"), r.stderr)
        }
    }

    func testAnAccountThatIsNotAnAdministratorGetsStatus11() throws {
        let admin = try AdminServer.require()
        let (plain, password) = try admin.makeAccount("plain")
        let t = try ToolRunner(server: admin.server)
        XCTAssertEqual(try t.run("xmpp-login", [plain] + t.serverArgs, password: password).status, 0)
        let r = try t.run("xmpp-register", [ToolRunner.username("x") + "@" + admin.server.domain, "--admin"], password: "pw")
        XCTAssertEqual(r.status, 12, r.stderr)
        XCTAssertTrue(r.stderr.contains("not an administrator"), r.stderr)
    }
}
