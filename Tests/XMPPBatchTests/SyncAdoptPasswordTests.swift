import Foundation
import XCTest
import XMPPStanzas
@testable import XMPPBatch

/// `sync --adopt` takes the passwords it logs in with from where the refresh and the read-back
/// do (`SyncRun.logInPasswords`): the report's, `--adopt-report`'s, then the row's own. An
/// account batch made from a row with a `password` column is adopted with its password: its
/// roster is managed and other rosters get it. The row's password stays in memory: only
/// `--adopt-report`'s go on to the report.
final class SyncAdoptPasswordTests: XCTestCase {
    func testAnAccountWhoseOnlyPasswordIsTheFilesIsAdoptedWithItsRoster() throws {
        let dir = NSTemporaryDirectory() + "sap-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // a1, a2: the file's own passwords only; a3: --adopt-report's; a4: none anywhere.
        let sheet = try syncSheet("username,password,groups,contacts\na1,pc1,C,C\na2,pc2,C,C\na3,,C,C\na4,,C,C\n")
        var configuration = BatchConfiguration()
        configuration.domain = "x.org"
        let run = try SyncRun(sheet: sheet, configuration: configuration, stateDirectory: dir + "/state", domains: ["x.org"])
        XCTAssertEqual(run.adoptionCandidates.count, 4)
        let all = Set(try ["a1@x.org", "a2@x.org", "a3@x.org", "a4@x.org"].map { try JID($0) })
        run.adopt(all, report: [:], adoptReport: ["a3@x.org": "from-batch"])

        XCTAssertEqual(run.facts.adopted, ["a1@x.org": true, "a2@x.org": true, "a3@x.org": true, "a4@x.org": false])
        let managed = run.managed
        XCTAssertEqual(managed["a1@x.org"]?.withoutPassword, false, "the file's password logs in")
        XCTAssertEqual(managed["a4@x.org"]?.withoutPassword, true)
        XCTAssertEqual(Set(managed["a1@x.org"]?.contacts.map(\.jid.description) ?? []), ["a2@x.org", "a3@x.org"],
                       "its roster is managed, and has the others with a password, never a4")
        XCTAssertEqual(managed["a4@x.org"]?.contacts, [])
        XCTAssertEqual(run.adoptedPasswords, ["a3@x.org": "from-batch"], "the row's own password is never carried to the report")

        let plan = run.plan(prune: .disable)
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: plan.adoptions.map { ($0.jid.description, $0.withPassword) }),
                       ["a1@x.org": true, "a2@x.org": true, "a3@x.org": true, "a4@x.org": false])
        XCTAssertFalse(plan.rosters.contains { ($0.add + $0.update).contains { $0.jid.description == "a4@x.org" } },
                       "only the account without a password is in no roster")
    }

    /// The report's password comes before the others: it is the one sync or batch generated.
    func testTheReportsPasswordComesFirst() throws {
        let dir = NSTemporaryDirectory() + "sap-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sheet = try syncSheet("username,password\na1,pc1\n")
        var configuration = BatchConfiguration()
        configuration.domain = "x.org"
        let run = try SyncRun(sheet: sheet, configuration: configuration, stateDirectory: dir + "/state", domains: ["x.org"])
        run.adopt([try JID("a1@x.org")], report: ["a1@x.org": "in-report"], adoptReport: ["a1@x.org": "elsewhere"])
        XCTAssertEqual(run.facts.adopted, ["a1@x.org": true])
        XCTAssertEqual(run.adoptedPasswords, [:], "the report holds it already")
    }

    /// An account adopted earlier without a password (before adoption looked at the rows, or
    /// before the file had a password column) is managed fully once sync has one: its roster
    /// and the others' with it are planned; one still without any stays out of every roster.
    func testAnAccountAdoptedWithoutAPasswordIsTakenUpOnceTheFileGivesOne() throws {
        let dir = NSTemporaryDirectory() + "sap-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var state = SyncState(domain: "x.org")
        for user in ["a1", "a2", "a3"] {
            state.accounts["\(user)@x.org"] = SyncState.Account(note: "adopted by sync on 2026-12-04", withoutPassword: user != "a2")
        }
        try state.save(stateDirectory: dir + "/state")
        let sheet = try syncSheet("username,password,groups,contacts\na1,pc1,C,C\na2,,C,C\na3,,C,C\n")
        var configuration = BatchConfiguration()
        configuration.domain = "x.org"
        let run = try SyncRun(sheet: sheet, configuration: configuration, stateDirectory: dir + "/state", domains: ["x.org"])
        run.takeUp(SyncRun.logInPasswords(report: ["a2@x.org": "generated"], adopted: [:], rows: run.rows))
        XCTAssertEqual(run.managed["a1@x.org"]?.withoutPassword, false, "the file's password is one sync holds")
        XCTAssertEqual(run.managed["a3@x.org"]?.withoutPassword, true)
        let plan = run.plan(prune: .disable)
        var added: [String: Set<String>] = [:]
        for change in plan.rosters { added[change.jid.description] = Set(change.add.map(\.jid.description)) }
        XCTAssertEqual(added, ["a1@x.org": ["a2@x.org"], "a2@x.org": ["a1@x.org"]], "a3 still has no password: no roster gets it")
    }
}
