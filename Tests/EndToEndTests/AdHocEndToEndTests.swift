import Foundation
import XCTest

/// xmpp-adhoc against a server with registration closed: the administrator lists and runs
/// XEP-0133 commands; an ordinary account is refused with exit status 12.
final class AdHocEndToEndTests: XCTestCase {
    func testAdministratorListsAndRunsAddUser() throws {
        let admin = try AdminServer.require()
        let t = try admin.adminRunner()
        let list = try t.run("xmpp-adhoc", ["list", "--json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let nodes = (try ToolRunner.json(list) as? [[String: Any]] ?? []).compactMap { $0["node"] as? String }
        XCTAssertTrue(nodes.contains("http://jabber.org/protocol/admin#add-user"), "\(nodes)")

        let form = try t.run("xmpp-adhoc", ["form", "add-user", "--json"])
        XCTAssertEqual(form.status, 0, form.stderr)
        let fields = ((try ToolRunner.json(form) as? [String: Any])?["fields"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertTrue(fields.contains("accountjid") && fields.contains("password"), "\(fields)")

        let user = ToolRunner.username("adhoc") + "@" + admin.server.domain
        let password = "pw-" + UUID().uuidString
        let run = try t.run("xmpp-adhoc", ["run", "add-user", "--field", "accountjid=" + user,
                                           "--password-field", "password", "--password-field", "password-verify"], password: password)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(try admin.logsIn(user, password), "the account made by add-user logs in")

        let again = try t.run("xmpp-adhoc", ["run", "add-user", "--field", "accountjid=" + user,
                                             "--password-field", "password", "--password-field", "password-verify"], password: password)
        XCTAssertNotEqual(again.status, 0, "the account exists now")

        let missing = try t.run("xmpp-adhoc", ["run", "add-user"])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("accountjid"), missing.stderr)

        let argvPassword = try t.run("xmpp-adhoc", ["run", "add-user", "--field", "password=x"])
        XCTAssertEqual(argvPassword.status, 2, "no password from argv")
    }

    func testAnOrdinaryAccountIsNotPermitted() throws {
        let admin = try AdminServer.require()
        let (jid, password) = try admin.makeAccount("plain")
        let t = try ToolRunner(server: admin.server)
        XCTAssertEqual(try t.run("xmpp-login", [jid] + t.serverArgs, password: password).status, 0)
        let r = try t.run("xmpp-adhoc", ["run", "http://jabber.org/protocol/admin#add-user", "--field", "accountjid=x@" + admin.server.domain])
        XCTAssertEqual(r.status, 12, r.stderr)
        XCTAssertTrue(r.stderr.contains("not an administrator"), r.stderr)
        let list = try t.run("xmpp-adhoc", ["list"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertFalse(list.stdout.contains("admin#add-user"), "administration commands are listed to administrators only")
    }
}
