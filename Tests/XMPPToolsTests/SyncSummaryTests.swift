import XCTest
import XMPPBatch
import XMPPStanzas
import XMPPStorage
@testable import XMPPTools

/// `xmpp-register sync`'s last line: what the read-back after a run found the server did not
/// keep counts as failures (exit 1), never as changes made.
final class SyncSummaryTests: XCTestCase {
    func testWhatTheServerDidNotKeepIsAFailure() throws {
        var configuration = BatchConfiguration()
        configuration.domain = "x.org"
        configuration.generatePasswords = true
        let sheet = try BatchSheet(input: Array("username\na1\n".utf8), name: "test", configuration: configuration, baseDirectory: "/")
        let rows = sheet.rows.compactMap { if case .valid(let r) = $0 { return r } else { return nil } }
        let plan = SyncPlan(rows: rows, state: [:], facts: SyncFacts(), prune: .disable)
        var summary = SyncSummary(admin: [], entries: [JournalEntry(line: 2, jid: "a1@x.org", status: .created)], plan: plan, seconds: 1)
        XCTAssertEqual(summary.failures, 0)
        XCTAssertEqual(summary.text, "1 created in 1.0 s")
        summary.notKept(2, seconds: 1.5)
        XCTAssertEqual(summary.failures, 2)
        XCTAssertEqual(summary.text, "1 created, 2 not kept by the server (read back after the run) in 1.5 s")
        summary.notKept(0, seconds: 2)
        XCTAssertEqual(summary.failures, 2)
    }

    /// The administrator's outcomes are counted by their typed status; a failed one is a failure.
    func testAdministratorOutcomesAreCountedByStatus() throws {
        let plan = SyncPlan(rows: [], state: [:], facts: SyncFacts(), prune: .disable)
        let admin = try [("a@x.org", SyncRun.AdminOutcome.Status.disabled), ("b@x.org", .disabled), ("c@x.org", .deleted),
                         ("d@x.org", .enabled), ("e@x.org", .failed)].map { SyncRun.AdminOutcome(jid: try JID($0.0), status: $0.1) }
        let summary = SyncSummary(admin: admin, entries: [], plan: plan, seconds: 1)
        XCTAssertEqual(summary.failures, 1)
        XCTAssertEqual(summary.text, "2 disabled, 1 deleted, 1 enabled, 1 failed in 1.0 s")
        XCTAssertEqual(admin.map(\.status.rawValue), ["disabled", "disabled", "deleted", "enabled", "failed"], "the JSON's status values")
    }
}
