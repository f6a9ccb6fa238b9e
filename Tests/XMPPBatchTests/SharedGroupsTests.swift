import Foundation
import XCTest
import TextFormats
@testable import XMPPBatch

/// A batch CSV's rosters as the servers' shared roster groups (issue 27 item 1): the groups that
/// give exactly the CSV's pairs, what cannot be expressed, and text that stays text.
final class SharedGroupsTests: XCTestCase {
    private func sheet(_ csv: String) throws -> BatchSheet {
        var configuration = BatchConfiguration()
        configuration.domain = "school.example"
        configuration.generatePasswords = true
        return try BatchSheet(input: Array(csv.utf8), name: "s.csv", configuration: configuration, baseDirectory: "/")
    }

    /// Two classes of two and two teachers who see everyone.
    private let school = """
        username,fullname,groups,contacts
        p1,Ann Ärger,Class 5A,Class 5A;Teachers
        p2,Bob,Class 5A,Class 5A;Teachers
        p3,Cy O'Neil,Class 5B,Class 5A\\;x;Teachers
        p4,Di,Class 5B,Class 5B;Teachers
        t1,Mrs T,Teachers,Teachers
        t2,Mr U,Teachers,Teachers
        """

    /// Two names whose ejabberd identifiers are one would share one group and its members (a
    /// crafted name joining the teachers'): refused, naming both. A real collision of 80 bits
    /// cannot be made here, so the check is driven with a shortened identifier.
    func testNamesWhoseEjabberdIdentifiersCollideAreRefused() throws {
        let names = ["Class 5A", "Teachers", "Class 5B"]
        XCTAssertNil(SharedGroups.collision(names, id: SharedGroups.groupID))
        let short = { (name: String) in String(SharedGroups.groupID(name).prefix(1)) }
        let clash = try XCTUnwrap(SharedGroups.collision(names, id: short))
        XCTAssertEqual(clash.first, "Class 5A")
        XCTAssertEqual(clash.second, "Class 5B")
        XCTAssertEqual(clash.id, "c")
        XCTAssertNil(SharedGroups.collision(["Class 5A", "Class 5A"], id: short), "one name twice is one group")
    }

    func testASchoolBecomesEjabberdGroupsThatDisplayWhatTheirMembersSee() throws {
        let csv = school.replacingOccurrences(of: "Class 5A\\;x;Teachers", with: "Class 5B;Teachers")
        let groups = try SharedGroups(sheet: try sheet(csv), kind: .ejabberd)
        XCTAssertEqual(groups.groups.map(\.name), ["Class 5A", "Class 5B", "Teachers"])
        XCTAssertEqual(groups.groups.map(\.displays), [[0, 2], [1, 2], [0, 1, 2]])
        let script = groups.ejabberdScript(source: "s.csv")
        let a = SharedGroups.groupID("Class 5A"), t = SharedGroups.groupID("Teachers"), b = SharedGroups.groupID("Class 5B")
        XCTAssertTrue(a.hasPrefix("class-5a-") && a.count == 9 + SharedGroups.idHashDigits, a)
        XCTAssertTrue(script.contains("$EJABBERDCTL srg_create '\(a)' 'school.example' 'Class 5A' 'xmpp-register shared-groups' ''\n"), script)
        XCTAssertTrue(script.contains("$EJABBERDCTL srg_create '\(a)' 'school.example' 'Class 5A' 'xmpp-register shared-groups' '\(a),\(t)'\n"), script)
        let lines = script.components(separatedBy: "\n")
        let lastEmpty = try XCTUnwrap(lines.lastIndex { $0.hasSuffix("'xmpp-register shared-groups' ''") })
        let firstShown = try XCTUnwrap(lines.firstIndex { $0.hasSuffix("'\(a),\(t)'") })
        XCTAssertLessThan(lastEmpty, firstShown, "every group exists before one displays it")
        XCTAssertTrue(script.contains("srg_create '\(t)' 'school.example' 'Teachers' 'xmpp-register shared-groups' '\(a),\(b),\(t)'\n"), script)
        XCTAssertTrue(script.contains("\n  'p3' 'school.example' '\(b)' 'school.example' \\\n"), script)
        XCTAssertEqual(script.components(separatedBy: "'school.example' \\\n").count - 1, 6, "one line of arguments per member")
        XCTAssertTrue(script.hasSuffix("| xargs -0 -n 4 -P \"${JOBS:-4}\" sh -c 'exec $EJABBERDCTL srg_user_add \"$@\"' sh\n"), script)
    }

    func testProsodyGroupsAreCliquesWithTheTeachersInEachClass() throws {
        let csv = school.replacingOccurrences(of: "Class 5A\\;x;Teachers", with: "Class 5B;Teachers")
        let groups = try SharedGroups(sheet: try sheet(csv), kind: .prosody)
        XCTAssertEqual(groups.groups.map(\.name), ["Class 5A", "Class 5B", "Teachers"])
        XCTAssertEqual(groups.groups.map(\.members), [[0, 1, 4, 5], [2, 3, 4, 5], [4, 5]])
        let file = groups.prosodyFile()
        XCTAssertTrue(file.hasPrefix("[Class 5A]\np1@school.example=Ann Ärger\np2@school.example=Bob\nt1@school.example=Mrs T\nt2@school.example=Mr U\n"), file)
        XCTAssertTrue(file.contains("\n[Class 5B]\np3@school.example=Cy O'Neil\n"), file)
    }

    /// What a server's groups would get wrong is refused, naming the pair.
    func testWhatTheServersCannotExpressIsRefused() throws {
        // A pupil of 5B who also sees a pupil of 5A: a class's members would differ.
        let personal = school.replacingOccurrences(of: "Class 5A\\;x;Teachers", with: "Class 5B;Teachers;p1@school.example")
        XCTAssertThrowsError(try SharedGroups(sheet: try sheet(personal), kind: .ejabberd)) { error in
            XCTAssertEqual(error as? SharedGroupsError, .wouldAdd("p1@school.example", "p4@school.example"))
        }
        XCTAssertThrowsError(try SharedGroups(sheet: try sheet(personal), kind: .prosody)) { error in
            XCTAssertEqual(error as? SharedGroupsError, .cannotShow("p1@school.example", "p3@school.example"))
        }
        // A contact name that is no group makes the row invalid: no groups from a CSV with invalid rows.
        XCTAssertThrowsError(try SharedGroups(sheet: try sheet(school), kind: .prosody)) { error in
            XCTAssertEqual(error as? SharedGroupsError, .invalidRows([4]))
        }
        let publicGroup = "username,groups,contacts\na,+Staff,+Staff\nb,+Staff,+Staff\n"
        XCTAssertThrowsError(try SharedGroups(sheet: try sheet(publicGroup), kind: .prosody)) { error in
            XCTAssertTrue("\(error)".contains("starts with '+'"), "\(error)")
        }
        XCTAssertNoThrow(try SharedGroups(sheet: try sheet(publicGroup), kind: .ejabberd))
        let equals = "jid,groups,contacts\na=b@school.example,G,G\nc@school.example,G,G\n"
        XCTAssertThrowsError(try SharedGroups(sheet: try sheet(equals), kind: .prosody)) { error in
            XCTAssertTrue("\(error)".contains("cannot be a line of Prosody's groups file"), "\(error)")
        }
        XCTAssertThrowsError(try SharedGroups(sheet: try sheet("jid,groups\na@x.org,G\nb@y.org,G\n"), kind: .ejabberd)) { error in
            XCTAssertEqual(error as? SharedGroupsError, .domains("x.org", "y.org"))
        }
        XCTAssertThrowsError(try SharedGroups(sheet: try sheet("username\na\n"), kind: .ejabberd)) { error in
            XCTAssertEqual(error as? SharedGroupsError, .noGroups)
        }
    }

    /// The CSV's text cannot become shell code or a line of its own: run the script with a
    /// stand-in for ejabberdctl that prints its arguments, one per line.
    func testTextFromTheCSVStaysOneArgument() throws {
        let raw = "It's $(touch pwned); `id` \"q\" \\ ok"
        let cell = "\"" + SemicolonList.escape(raw).replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let hostile = "username,fullname,groups,contacts\na,x,\(cell),\(cell)\nb,y,\(cell),\(cell)\n"
        let groups = try SharedGroups(sheet: try sheet(hostile), kind: .ejabberd)
        let name = try XCTUnwrap(groups.groups.first?.name)
        XCTAssertEqual(name, raw)
        let directory = try scratchDirectory("srg")
        let script = directory + "/groups.sh"
        try groups.ejabberdScript(source: "s.csv").write(toFile: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [script]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ["EJABBERDCTL": "printf %s|\\n", "PATH": "/usr/bin:/bin"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(printed.components(separatedBy: "\n").contains(name + "|"), printed)
        XCTAssertEqual(printed.components(separatedBy: "\n").filter { $0 == "srg_user_add|" }.count, 2, "each member's call ran: \(printed)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/pwned"), "no text of the CSV ran")
    }

    /// An LDIF directory export, read through a map as batch reads it, gives the same groups.
    func testAnLDIFExportGivesTheSameGroups() throws {
        let ldif = "dn: uid=a,ou=people\nuid: a\ncn: Ann\nou: Class 5A\nbusinessCategory: Class 5A\n\n"
            + "dn: uid=b,ou=people\nuid: b\ncn: Bob\nou: Class 5A\nbusinessCategory: Class 5A\n\n"
        var configuration = BatchConfiguration()
        configuration.domain = "school.example"
        configuration.generatePasswords = true
        configuration.directoryMap = try DirectoryMap("uid=username,cn=fullname,ou=groups,businessCategory=contacts")
        let sheet = try BatchSheet(input: Array(ldif.utf8), name: "s.ldif", configuration: configuration, baseDirectory: "/")
        let groups = try SharedGroups(sheet: sheet, kind: .prosody)
        XCTAssertEqual(groups.prosodyFile(), "[Class 5A]\na@school.example=Ann\nb@school.example=Bob\n")
        XCTAssertTrue(try SharedGroups(sheet: sheet, kind: .ejabberd).ejabberdScript(source: "s.ldif").contains("1 group, 2 accounts."))
    }
}

