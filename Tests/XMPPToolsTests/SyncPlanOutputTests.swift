import TextFormats
import XCTest
import XMPPStanzas
import XMPPBatch
@testable import XMPPTools

/// What `xmpp-register sync` prints of its plan: leavers first, one line per change for people,
/// and the JSON's field names and order, which scripts rely on.
final class SyncPlanOutputTests: XCTestCase {
    private func plan() throws -> SyncPlan {
        var configuration = BatchConfiguration()
        configuration.domain = "x.org"
        configuration.generatePasswords = true
        let csv = "username,fullname,groups,contacts\na1,Ann Smith,C,C\na2,Abe,C,C\nn1,New,C,C\n"
        let sheet = try BatchSheet(input: Array(csv.utf8), name: "test", configuration: configuration, baseDirectory: "/")
        let rows = sheet.rows.compactMap { if case .valid(let r) = $0 { return r } else { return nil } }
        let a1 = try JID("a1@x.org"), a2 = try JID("a2@x.org"), b2 = try JID("b2@x.org")
        let state: [String: SyncState.Account] = [
            "a1@x.org": SyncState.Account(fullname: "Ann", contacts: [RosterItem(jid: a2, name: "Abe", groups: ["C"]),
                                                                       RosterItem(jid: b2, name: "Bob", groups: ["C"])]),
            "a2@x.org": SyncState.Account(fullname: "Abe", contacts: [RosterItem(jid: a1, name: "Ann", groups: ["C"])]),
            "b2@x.org": SyncState.Account(fullname: "Bob"),
        ]
        return SyncPlan(rows: rows, state: state, facts: SyncFacts(disableOffered: ["x.org": false]), prune: .disable)
    }

    func testTextPutsLeaversFirstAndSaysWhatTheServerLacks() throws {
        let lines = SyncPlanOutput.lines(try plan(), removalLimit: 5)
        XCTAssertEqual(lines.first, "keep     b2@x.org  (left the file, but the server offers no disable-user; --prune delete deletes it)")
        XCTAssertTrue(lines.contains("create   n1@x.org"), "\(lines)")
        XCTAssertTrue(lines.contains("profile  a1@x.org: fullname 'Ann' → 'Ann Smith'"), "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("roster   a1@x.org: add n1@x.org; remove b2@x.org") }, "\(lines)")
        XCTAssertEqual(lines.last, "Plan: \(lines.count - 1) changes; 0 managed accounts unchanged.")
    }

    func testJSONHasEveryFieldInAStableOrder() throws {
        guard case .object(let fields) = SyncPlanOutput.json(try plan(), removalLimit: 5) else { return XCTFail("not an object") }
        XCTAssertEqual(fields.map(\.0), ["format_version", "changes", "refreshed", "managed", "unchanged", "removals", "removal_limit",
                                         "leavers", "enable", "groups_leaving", "adopt", "drift", "unverified", "not_managed", "create", "profile", "roster"])
        XCTAssertEqual(fields.first?.1, .string("1.2"), "format_version: a minor version only adds fields")
        let json = SyncPlanOutput.json(try plan(), removalLimit: 5).compact
        XCTAssertTrue(json.contains(#""leavers":[{"jid":"b2@x.org","action":"cannot-disable","note":"the server offers no disable-user; --prune delete deletes it"}]"#), json)
        XCTAssertTrue(json.contains(#""create":[{"line":4,"jid":"n1@x.org","note":null}]"#), json)
        XCTAssertTrue(json.contains(#""fields":[{"field":"fullname","from":"Ann","to":"Ann Smith"}],"avatar":false"#), json)
        XCTAssertTrue(json.contains(#""changes":true,"refreshed":false,"managed":3,"unchanged":0,"removals":0,"removal_limit":5"#), json)
    }

    func testDriftComesFirstEachOnItsOwnLineAndIsNotCountedAsAChange() throws {
        var configuration = BatchConfiguration()
        configuration.domain = "x.org"
        configuration.generatePasswords = true
        let sheet = try BatchSheet(input: Array("username,fullname\na1,Ann\na2,Abe\na3,Al\n".utf8), name: "test",
                                   configuration: configuration, baseDirectory: "/")
        let rows = sheet.rows.compactMap { if case .valid(let r) = $0 { return r } else { return nil } }
        let state = ["a1@x.org": SyncState.Account(fullname: "Ann"), "a2@x.org": SyncState.Account(fullname: "Abe"),
                     "a3@x.org": SyncState.Account(fullname: "Al")]
        let refresh = SyncRefresh(existing: ["x.org": [try JID("a2@x.org"), try JID("a3@x.org")]],
                                  readings: ["a2@x.org": .disabled, "a3@x.org": .notVerifiable("the password in the report does not log in")])
        let plan = SyncPlan(rows: rows, state: state, facts: SyncFacts(refresh: refresh), prune: .disable)
        let lines = SyncPlanOutput.lines(plan, removalLimit: 5)
        XCTAssertEqual(Array(lines.prefix(3)), [
            "drift    a1@x.org  deleted on the server: created again, with a new password",
            "drift    a2@x.org  disabled on the server: enabled",
            "unverified a3@x.org  (the password in the report does not log in): not checked against the server, not drift",
        ])
        XCTAssertTrue(lines.contains("create   a1@x.org  (deleted on the server: created again, with a new password)"), "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("enable   a2@x.org") }, "\(lines)")
        XCTAssertEqual(lines.last, "Plan: 2 changes; 1 managed account unchanged.")
        let json = SyncPlanOutput.json(plan, removalLimit: 5).compact
        XCTAssertTrue(json.contains(#""drift":[{"jid":"a1@x.org","what":"deleted on the server","action":"created again, with a new password"},"#), json)
        XCTAssertTrue(json.contains(#""refreshed":true"#), json)
    }
}
