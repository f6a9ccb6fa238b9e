import Foundation
import XCTest
import XMPPStanzas
import XMPPStorage
@testable import XMPPBatch

/// Where sync's log-ins as its accounts get their passwords: the report holds only those sync
/// generated, so an account whose row gives a password (a `password` column) is logged in to
/// with the file's own; an account with neither cannot be checked, which is not "not kept".
final class SyncReadBackPasswordTests: XCTestCase {
    func testTheFilesPasswordFillsInWhereTheReportHasNone() throws {
        let rows = try syncSheet("username,password\na1,pc1\na2,pc2\na3,\n").validRows
        let passwords = SyncRun.logInPasswords(report: ["a2@x.org": "generated"], adopted: ["a4@x.org": "adopted"], rows: rows)
        XCTAssertEqual(passwords, ["a1@x.org": "pc1", "a2@x.org": "generated", "a4@x.org": "adopted"],
                       "the report's password is the live one; a row without a password adds none")
    }

    /// An account created from a row without a password, whose report lost it: the read-back
    /// cannot log in, says so, and counts nothing as not kept (no server is asked).
    func testAnAccountWithoutAnyPasswordIsUncheckedNotAFailure() throws {
        let dir = NSTemporaryDirectory() + "srp-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let sheet = try syncSheet("username\na1\n")
        let rows = sheet.validRows
        let plan = SyncPlan(rows: rows, state: [:], facts: SyncFacts(), prune: .disable, columns: [])
        XCTAssertEqual(plan.creations.map(\.jid.description), ["a1@x.org"])
        try SyncState(domain: "x.org", accounts: ["a1@x.org": SyncState.Account()]).save(stateDirectory: dir + "/state")
        var configuration = BatchConfiguration()
        configuration.domain = "x.org"
        let run = try SyncRun(sheet: sheet, configuration: configuration, stateDirectory: dir + "/state", domains: ["x.org"])
        let entries = [JournalEntry(line: rows[0].line, jid: "a1@x.org", status: .created)]
        let readBack = try run.verify(plan, entries: entries, reportPath: dir + "/report.csv", jobs: 1,
                                      endpoint: { domain in throw BatchError.notAReport(path: domain, reason: "no server in this test") },
                                      shouldStop: { false })
        XCTAssertEqual(readBack.problems, [])
        XCTAssertEqual(readBack.unchecked.count, 1)
        XCTAssertTrue(readBack.unchecked[0].hasPrefix("a1@x.org: cannot be checked"), readBack.unchecked[0])
    }

    func testNotKeptNamesWhatTheServerLost() throws {
        let a1 = try JID("a1@x.org"), a2 = try JID("a2@x.org")
        let managed = ["a1@x.org": SyncState.Account(contacts: [RosterItem(jid: a2, subscription: .both)]), "a2@x.org": SyncState.Account()]
        let problems = SyncRun.notKept([a1, a2], readings: ["a1@x.org": .roster([]), "a2@x.org": .disabled], managed: managed)
        XCTAssertEqual(problems, ["a1@x.org: the server did not keep contact a2@x.org", "a2@x.org: still disabled on the server"])
    }
}
