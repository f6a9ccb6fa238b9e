import XCTest
import XMPPStanzas
@testable import XMPPBatch

/// The removal guard: more removals than the limit need `--yes`, and so does removing every
/// managed account, however few (issue 34: an empty export disabled a school of five).
final class SyncRemovalGuardTests: XCTestCase {
    private func rows(_ csv: String) throws -> [BatchRow] { try syncSheet(csv).validRows }

    func testRemovingEveryManagedAccountNeedsYesBelowTheLimit() throws {
        let school = try rows("username,fullname\ns1,One\ns2,Two\ns3,Three\n")
        var state: [String: SyncState.Account] = [:]
        for row in school { state[row.jid.description] = SyncState.Account(fullname: row.profile.fullname) }
        let facts = SyncFacts(disableOffered: ["x.org": true])
        let limit = SyncPlan.defaultRemovalLimit(managed: 3)

        let oneLeaves = SyncPlan(rows: Array(school.dropLast()), state: state, facts: facts, prune: .disable)
        XCTAssertEqual(oneLeaves.removals, 1)
        XCTAssertFalse(oneLeaves.needsConfirmation(limit: limit), "a leaver within the limit passes")

        // A file that lists none of them (a stranger's export, or a cut one): three removals,
        // under the limit of five, yet nobody would be left.
        let nobody = SyncPlan(rows: try rows("username\nnew1\n"), state: state, facts: facts, prune: .disable)
        XCTAssertEqual(nobody.removals, 3)
        XCTAssertLessThanOrEqual(nobody.removals, limit)
        XCTAssertTrue(nobody.removesEveryone)
        XCTAssertTrue(nobody.needsConfirmation(limit: limit))
        XCTAssertTrue(nobody.needsConfirmation(limit: 100), "whatever --max-removals says")
    }
}
