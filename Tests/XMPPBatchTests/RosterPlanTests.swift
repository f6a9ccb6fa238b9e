import XCTest
import XMPPStanzas
import XMPPStorage
@testable import XMPPBatch

/// The groups and contacts columns: who gets whom, filed under which groups, and which rows are refused.
final class RosterPlanTests: XCTestCase {
    private func sheet(_ csv: String, domain: String? = "x.org") throws -> BatchSheet {
        var configuration = BatchConfiguration()
        configuration.domain = domain
        return try BatchSheet(input: Array(csv.utf8), name: "test", configuration: configuration, baseDirectory: "/")
    }

    private func contacts(_ plan: RosterPlan, _ line: Int) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for item in plan.contacts[line] ?? [] { out[item.jid.description] = item.groups }
        return out
    }

    func testGroupNamesAndJIDsMakeMutualPairsFiledUnderTheContactsGroups() throws {
        let s = try sheet("""
            username,password,fullname,groups,contacts
            t1,p,Ann,Teachers,Teachers
            t2,p,,Teachers;Staff,Teachers
            p1,p,,Class 5A,Class 5A;Teachers
            p2,p,,Class 5A,Class 5A
            solo,p,,,p2@x.org
            quiet,p,,,

            """)
        let plan = RosterPlan(rows: s.rows)
        XCTAssertEqual(contacts(plan, 2), ["t2@x.org": ["Teachers", "Staff"], "p1@x.org": ["Class 5A"]])
        XCTAssertEqual(contacts(plan, 3), ["t1@x.org": ["Teachers"], "p1@x.org": ["Class 5A"]])
        XCTAssertEqual(contacts(plan, 4), ["p2@x.org": ["Class 5A"], "t1@x.org": ["Teachers"], "t2@x.org": ["Teachers", "Staff"]])
        XCTAssertEqual(contacts(plan, 5), ["p1@x.org": ["Class 5A"], "solo@x.org": []], "whoever is named gets the namer back")
        XCTAssertEqual(contacts(plan, 6), ["p2@x.org": ["Class 5A"]])
        XCTAssertNil(plan.contacts[7], "a row with no contact and named by nobody takes no part")
        XCTAssertEqual(plan.contacts[3]?.first { $0.jid.description == "t1@x.org" }?.name, "Ann", "named by the row's fullname")
        let entries = BatchPlan.entries(for: s.rows)
        XCTAssertEqual(entries.map(\.roster), ["pending", "pending", "pending", "pending", "pending", nil])
    }

    func testAContactThatIsNeitherARowNorAGroupMakesTheRowInvalid() throws {
        let s = try sheet("""
            jid,password,groups,contacts
            a@x.org,p,G,G;Nobody
            b@x.org,p,G,stranger@elsewhere.org
            c@x.org,p,G,G

            """)
        let reasons = s.invalid.map { "\($0.line) \($0.reason)" }
        XCTAssertEqual(reasons.count, 2, "\(reasons)")
        XCTAssertTrue(reasons[0].hasPrefix("2 contact 'Nobody' is neither a JID nor a group"), reasons[0])
        XCTAssertTrue(reasons[1].hasPrefix("3 contact 'stranger@elsewhere.org' is not an account of this batch"), reasons[1])
        let plan = RosterPlan(rows: s.rows)
        XCTAssertNil(plan.contacts[4], "c's group has no other valid member left")
    }

    func testContactsColumnIsRefusedWithShardAndWithInvites() {
        var configuration = BatchConfiguration()
        configuration.shard = Shard("1/2")
        XCTAssertThrowsError(try BatchSheet(input: Array("jid,password,contacts\n".utf8), name: "t", configuration: configuration, baseDirectory: "/"))
        configuration = BatchConfiguration()
        configuration.invite = true
        XCTAssertThrowsError(try BatchSheet(input: Array("jid,contacts\n".utf8), name: "t", configuration: configuration, baseDirectory: "/"))
    }

    func testReportHasARosterColumnOnlyWhenTheBatchHasRosters() {
        let plain = BatchReport.csv([JournalEntry(line: 2, jid: "a@x.org", status: .created)], includePasswords: false)
        XCTAssertEqual(String(decoding: plain, as: UTF8.self), "line,jid,status,error,profile,note\r\n2,a@x.org,created,,,\r\n")
        let rosters = BatchReport.csv([JournalEntry(line: 2, jid: "a@x.org", status: .created, roster: "done"),
                                       JournalEntry(line: 3, jid: "b@x.org", status: .created)], includePasswords: false)
        XCTAssertEqual(String(decoding: rosters, as: UTF8.self),
                       "line,jid,status,error,profile,roster,note\r\n2,a@x.org,created,,,done,\r\n3,b@x.org,created,,,,\r\n")
    }
}
