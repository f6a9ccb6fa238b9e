import Foundation
import XCTest

/// `xmpp-register shared-groups FILE --apply` (issue 36): a school's shared roster groups kept
/// in step through each server's own admin interface, at its packaged configuration: ejabberd
/// 24.12's mod_http_api, Prosody 13's groups file and admin shell. A first run makes the groups;
/// a new pupil is one member added, a move one removed and one added, a leaver one removed; each
/// checked by logging in as pupils and teachers; a teacher's `watch` stays connected throughout
/// (ejabberd changes an online roster at once, Prosody at the account's next first session).
final class SharedGroupsApplyEndToEndTests: XCTestCase {
    private struct School {
        var pupils: [(name: String, klass: String)]
        var teachers: [String]

        var csv: String {
            var lines = ["username,fullname,groups,contacts"]
            for (p, klass) in pupils { lines.append("\(p),Pupil \(p),\(klass),\(klass);Teachers") }
            for t in teachers { lines.append("\(t),Teacher \(t),Teachers,Teachers") }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// Runs the school through --apply; the plan's lines and the status.
    private func apply(_ t: ToolRunner, _ school: School, _ args: [String], password: String?) throws -> (lines: [String], status: Int32) {
        let input = t.home + "/school.csv"
        try Data(school.csv.utf8).write(to: URL(fileURLWithPath: input))
        let r = try t.run("xmpp-register", ["shared-groups", input, "--domain", "localhost", "--apply"] + args, password: password, timeout: 120)
        XCTAssertTrue(r.status == 0 || r.status == 13, r.stderr)
        return (r.stdout.split(separator: "\n").map(String.init), r.status)
    }

    func testEjabberdGroupsFollowTheSchoolThroughItsHTTPAPI() throws {
        // The packaged configuration with an administrator: its api_permissions want loopback and
        // the administrator's credentials, which the tool asks for when refused without them.
        let server = try TestServer.startPrivate("ejabberd24", ["--defaults", "--admin", "boss"])
        defer { server.stop() }
        let t = try ToolRunner(server: server)
        let register = try Shell.run([Paths.root + "/scripts/test-server", "ctl", server.directory, "register", "boss", "localhost", "pw-boss"], timeout: 60)
        XCTAssertEqual(register.status, 0, register.stderr)
        let api = ["--for", "ejabberd", "--api", try setting(server, "XT_API_URL"), "--ca-file", server.caFile, "-a", "boss@localhost"]
        let refused = try t.run("xmpp-register", ["shared-groups", "-", "--domain", "localhost", "--apply", "--password-stdin"] + api,
                                stdin: "username,groups,contacts\nx,G,G\n", timeout: 60)
        XCTAssertEqual(refused.status, 2, "standard input cannot carry both: \(refused.stderr)")
        try runSchoolYear(t, server, api: api, password: "pw-boss") { watcher, newPupil in
            // ejabberd pushes a shared group's new member to the members online.
            try watcher.waitForOutput(containing: newPupil, timeout: 30)
        }
    }

    func testProsodyGroupsFollowTheSchoolThroughItsAdminShell() throws {
        let server = try TestServer.startPrivate("prosody13", ["--defaults"])
        defer { server.stop() }
        let t = try ToolRunner(server: server)
        let file = try enableProsodyGroups(server)
        let prosody = ["--for", "prosody", "--groups-file", file, "--prosodyctl", Paths.root + "/scripts/test-server ctl " + server.directory]
        try runSchoolYear(t, server, api: prosody, password: nil) { _, _ in }
    }

    /// The school's year on `server`, through `api` (the --for and interface options).
    private func runSchoolYear(_ t: ToolRunner, _ server: TestServer, api: [String], password: String?,
                               online: (Watcher, String) throws -> Void) throws {
        let apply = { (school: School) in try self.apply(t, school, api, password: password) }
        let tag = String(ToolRunner.username("").prefix(5))
        var school = School(pupils: [("a\(tag)1", "Class 5A"), ("a\(tag)2", "Class 5A"), ("b\(tag)3", "Class 5B"), ("b\(tag)4", "Class 5B")],
                            teachers: ["t\(tag)1"])
        let newPupil = "a\(tag)5"
        for user in school.pupils.map(\.name) + school.teachers + [newPupil] {
            let r = try Shell.run([Paths.root + "/scripts/test-server", "ctl", server.directory, "register", user, "localhost", "pw-" + user], timeout: 60)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let jid = { (user: String) in user + "@localhost" }
        let contactsOf = { (user: String) in try self.sharedContacts(t, jid(user), "pw-" + user) }
        let (a1, a2, b3, b4, t1) = (school.pupils[0].name, school.pupils[1].name, school.pupils[2].name, school.pupils[3].name, school.teachers[0])

        // A teacher online throughout.
        let login = try t.run("xmpp-login", [jid(t1)] + t.serverArgs, password: "pw-" + t1)
        XCTAssertEqual(login.status, 0, login.stderr)
        let watcher = try Watcher(argv: [Paths.binaries + "/xmpp-roster", "watch", "-a", jid(t1)] + t.serverArgs, environment: t.environment)
        try watcher.waitForOutput(containing: "interrupt to stop", timeout: 30)

        let ejabberd = server.kind.hasPrefix("ejabberd")
        let first = try apply(school)
        XCTAssertEqual(first.status, 13)
        // ejabberd: each member once; Prosody: the teacher is a member of each class too.
        XCTAssertEqual(first.lines.filter { $0.hasPrefix("add ") }.count, ejabberd ? 5 : 7, first.lines.joined(separator: "\n"))
        XCTAssertEqual(try contactsOf(a1).keys.sorted(), [jid(a2), jid(t1)].sorted())
        // ejabberd changes an online member's roster at once; Prosody's mod_groups adds the
        // groups when an account's roster is loaded, at its first session: the teacher, online
        // since before, sees them from the next log-in after all its sessions ended.
        XCTAssertEqual(Set(try contactsOf(t1).keys), ejabberd ? Set([a1, a2, b3, b4].map(jid)) : [])
        XCTAssertEqual(try apply(school).status, 0, "the same file again changes nothing")

        school.pupils.append((newPupil, "Class 5A"))
        let added = try apply(school)
        let membership = { (lines: [String]) in lines.filter { $0.hasPrefix("add ") || $0.hasPrefix("remove ") } }
        XCTAssertEqual(membership(added.lines), ["add \(jid(newPupil)) to 'Class 5A'"], added.lines.joined(separator: "\n"))
        try online(watcher, jid(newPupil))
        XCTAssertEqual(try contactsOf(a1).keys.sorted(), [jid(a2), jid(newPupil), jid(t1)].sorted())

        school.pupils[1].klass = "Class 5B"
        let moved = try apply(school)
        XCTAssertEqual(membership(moved.lines), ["remove \(jid(a2)) from 'Class 5A'", "add \(jid(a2)) to 'Class 5B'"])
        if ejabberd { XCTAssertEqual(moved.lines.count, 2, "only the members: \(moved.lines)") }
        XCTAssertEqual(try contactsOf(a1).keys.sorted(), [jid(newPupil), jid(t1)].sorted())
        XCTAssertEqual(try contactsOf(b3).keys.sorted(), [jid(a2), jid(b4), jid(t1)].sorted())

        school.pupils.removeAll { $0.name == b4 }
        let left = try apply(school)
        XCTAssertEqual(membership(left.lines), ["remove \(jid(b4)) from 'Class 5B'"])
        XCTAssertEqual(try contactsOf(b3).keys.sorted(), [jid(a2), jid(t1)].sorted())
        XCTAssertEqual(try contactsOf(b4), [:], "the leaver sees nobody")

        // Nobody was disconnected: the teacher's watch never lost its stream.
        XCTAssertFalse(watcher.errorOutput.contains("connection lost") || watcher.output.contains("reconnected"),
                       watcher.output + watcher.errorOutput)
        XCTAssertEqual(watcher.stop(SIGTERM), 0)
        // What the server gives the teacher's next log-in, read without this home's roster cache:
        // on ejabberd the cache that the watch and the lists shared misses a member pushed while
        // online (roster versioning over shared groups; see DESIGN-NOTES, left for its own fix).
        let fresh = try ToolRunner(server: server)
        XCTAssertEqual(Set(try sharedContacts(fresh, jid(t1), "pw-" + t1).keys), Set([a1, a2, b3, newPupil].map(jid)), "the teacher's next log-in")
    }
}
