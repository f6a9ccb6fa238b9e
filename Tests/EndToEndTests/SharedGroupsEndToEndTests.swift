import Foundation
import XCTest

/// Issue 27 item 1's other path: a school's CSV as the server's shared roster groups, loaded
/// into real servers as an administrator would (Prosody 13's mod_groups with its groups file,
/// ejabberd 24.12's mod_shared_roster at its packaged configuration through the generated
/// ejabberdctl script), then each side's roster read by logging in: each pair that should see
/// each other does, in the right group, and no other pair. Each runs once, in its server's pass.
final class SharedGroupsEndToEndTests: XCTestCase {
    /// The classes' names: each format's special characters, with a mark Swift glues onto the
    /// character before it (issue 34), so a check made on Characters would miss the quote or
    /// the bracket; `$(touch x)` would leave a file x if the script ran it.
    static let classA = "[\u{301}Class 5A]"
    static let classB = "Class 5'\u{301}B $(touch x)'\u{FE0F}"

    /// Two classes of two pupils and two teachers who see everyone; names with the characters
    /// each format must keep as text.
    private func school(_ tag: String) -> (csv: String, pupils: [String], teachers: [String]) {
        let pupils = (1...4).map { "sg\(tag)p\($0)" }, teachers = (1...2).map { "sg\(tag)t\($0)" }
        var lines = ["username,fullname,groups,contacts"]
        for (i, p) in pupils.enumerated() {
            let klass = i < 2 ? Self.classA : Self.classB
            lines.append("\(p),Pupil \(i) Ärger=1,\"\(klass)\",\"\(klass);Teachers\"")
        }
        for t in teachers { lines.append("\(t),Teacher \(t),Teachers,Teachers") }
        return (lines.joined(separator: "\n") + "\n", pupils, teachers)
    }

    private func ctl(_ server: TestServer, _ args: [String]) throws {
        let r = try Shell.run([Paths.root + "/scripts/test-server", "ctl", server.directory] + args, timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testProsodyGroupsFileGivesTheSchoolsRosters() throws {
        let server = try TestServer.startPrivate("prosody13")
        defer { server.stop() }
        let t = try ToolRunner(server: server)
        let (csv, pupils, teachers) = school("p")
        let input = t.home + "/school.csv", report = t.home + "/pw.csv"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: input))
        let batch = try t.run("xmpp-register", ["batch", input, "--domain", server.domain, "--generate-passwords", "--report", report,
                                                "--shared-groups"] + t.serverArgs, timeout: 120)
        XCTAssertEqual(batch.status, 0, batch.stderr)
        XCTAssertTrue(batch.stderr.contains("no per-account rosters (--shared-groups)"), batch.stderr)
        XCTAssertFalse(batch.stderr.contains("roster"  + "s done"), "no roster phase: \(batch.stderr)")
        var passwords: [String: String] = [:]
        for line in try String(contentsOfFile: report, encoding: .utf8).split(separator: "\r\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            passwords[f[1]] = f[5]
        }
        XCTAssertEqual(passwords.count, 6)

        let file = try t.run("xmpp-register", ["shared-groups", input, "--domain", server.domain, "--for", "prosody"])
        XCTAssertEqual(file.status, 0, file.stderr)
        try Data(file.stdout.utf8).write(to: URL(fileURLWithPath: server.directory + "/groups.txt"))
        // What the man page tells the administrator: the module and groups_file, then a restart.
        let config = server.directory + "/prosody.cfg.lua"
        var text = try String(contentsOfFile: config, encoding: .utf8)
        text = text.replacingOccurrences(of: "modules_enabled = {", with: "modules_enabled = {\n  \"groups\";")
            .replacingOccurrences(of: "VirtualHost \"localhost\"", with: "groups_file = \"\(server.directory)/groups.txt\"\nVirtualHost \"localhost\"")
        try Data(text.utf8).write(to: URL(fileURLWithPath: config))
        let restart = try Shell.run([Paths.root + "/scripts/test-server", "restart", server.directory], timeout: 120)
        XCTAssertEqual(restart.status, 0, restart.stderr)

        let jid = { (user: String) in user + "@" + server.domain }
        let pupil = try sharedContacts(t, jid(pupils[0]), try XCTUnwrap(passwords[jid(pupils[0])]))
        XCTAssertEqual(pupil, [jid(pupils[1]): [Self.classA], jid(teachers[0]): [Self.classA], jid(teachers[1]): [Self.classA]])
        let other = try sharedContacts(t, jid(pupils[2]), try XCTUnwrap(passwords[jid(pupils[2])]))
        XCTAssertEqual(Set(other.keys), Set([jid(pupils[3])] + teachers.map(jid)))
        XCTAssertEqual(other[jid(pupils[3])], [Self.classB], "the group's name as the CSV has it")
        let teacher = try sharedContacts(t, jid(teachers[0]), try XCTUnwrap(passwords[jid(teachers[0])]))
        XCTAssertEqual(Set(teacher.keys), Set(pupils.map(jid) + [jid(teachers[1])]))
        XCTAssertEqual(teacher[jid(teachers[1])], [Self.classA, Self.classB, "Teachers"].sorted(), "mod_groups files a contact under every group the two share")
    }

    func testEjabberdScriptGivesTheSchoolsRostersAtTheDefaultConfiguration() throws {
        let server = try TestServer.startPrivate("ejabberd24", ["--defaults"])
        defer { server.stop() }
        let t = try ToolRunner(server: server)
        let (csv, pupils, teachers) = school("e")
        let input = t.home + "/school.csv"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: input))
        // At the defaults in-band registration allows one account per address every 10 minutes:
        // the accounts are the administrator's (the batch would use --admin).
        for user in pupils + teachers { try ctl(server, ["register", user, server.domain, "pw-" + user]) }

        let script = try t.run("xmpp-register", ["shared-groups", input, "--domain", server.domain, "--for", "ejabberd"])
        XCTAssertEqual(script.status, 0, script.stderr)
        let path = t.home + "/groups.sh"
        try Data(script.stdout.utf8).write(to: URL(fileURLWithPath: path))
        let run = try Shell.run(["/bin/sh", path], environment: ProcessInfo.processInfo.environment.merging(
            ["EJABBERDCTL": Paths.root + "/scripts/test-server ctl " + server.directory], uniquingKeysWith: { $1 }), timeout: 120)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: t.home + "/x"), "no text of the CSV ran as a command")

        let jid = { (user: String) in user + "@" + server.domain }
        let pupil = try sharedContacts(t, jid(pupils[0]), "pw-" + pupils[0])
        XCTAssertEqual(pupil, [jid(pupils[1]): [Self.classA], jid(teachers[0]): ["Teachers"], jid(teachers[1]): ["Teachers"]])
        let other = try sharedContacts(t, jid(pupils[3]), "pw-" + pupils[3])
        XCTAssertEqual(other, [jid(pupils[2]): [Self.classB], jid(teachers[0]): ["Teachers"], jid(teachers[1]): ["Teachers"]])
        let teacher = try sharedContacts(t, jid(teachers[1]), "pw-" + teachers[1])
        XCTAssertEqual(teacher, [jid(pupils[0]): [Self.classA], jid(pupils[1]): [Self.classA], jid(pupils[2]): [Self.classB],
                                 jid(pupils[3]): [Self.classB], jid(teachers[0]): ["Teachers"]])
    }
}
