import Foundation
import XCTest
import XMPPStanzas
import XMPPStorage
@testable import XMPPBatch

/// Which accounts sync reads back after applying: roster items and re-enabled accounts always;
/// an account the run created and then logged in to itself (its profile applied) is not logged
/// in to again when it has no managed contacts (`sync --rosters shared`).
final class SyncReadBackSelectionTests: XCTestCase {
    private func rows(_ text: String) throws -> [BatchRow] { try syncSheet(text).validRows }

    func testCreatedAccountsWithoutContactsThatTheRunLoggedInToAreNotReadBack() throws {
        let r = try rows("username,nickname\na1,Ann\na2,Abe\na3,Al\n")
        let plan = SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable, columns: ["nickname"])
        XCTAssertEqual(plan.creations.count, 3)
        let managed = Dictionary(uniqueKeysWithValues: r.map { ($0.jid.description, SyncState.Account(nickname: $0.profile.nickname)) })
        let entries = [
            JournalEntry(line: r[0].line, jid: "a1@x.org", status: .created, profile: "applied"),
            // Its profile log-in did not finish: nothing proved it logs in.
            JournalEntry(line: r[1].line, jid: "a2@x.org", status: .created, profile: "pending:nickname"),
            // Created without profile columns: no log-in at all.
            JournalEntry(line: r[2].line, jid: "a3@x.org", status: .created),
        ]
        XCTAssertEqual(SyncRun.readBack(plan, managed: managed, entries: entries).map(\.description), ["a2@x.org", "a3@x.org"])
    }

    func testRosterItemsAreAlwaysReadBack() throws {
        let r = try rows("username,nickname,groups,contacts\na1,Ann,C,C\na2,Abe,C,C\n")
        let plan = SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable, columns: ["nickname"])
        var managed: [String: SyncState.Account] = [:]
        for row in r {
            let other = try JID(row.jid.description == "a1@x.org" ? "a2@x.org" : "a1@x.org")
            managed[row.jid.description] = SyncState.Account(nickname: row.profile.nickname, contacts: [RosterItem(jid: other, subscription: .both)])
        }
        let entries = r.map { JournalEntry(line: $0.line, jid: $0.jid.description, status: .created, profile: "applied", roster: "done") }
        XCTAssertEqual(SyncRun.readBack(plan, managed: managed, entries: entries).map(\.description), ["a1@x.org", "a2@x.org"])
    }

    func testReenabledAndInactiveAccounts() throws {
        let r = try rows("username,nickname\na1,Ann\na2,Abe\n")
        var state: [String: SyncState.Account] = [:]
        state["a1@x.org"] = SyncState.Account(standing: .disabled, nickname: "Ann")
        state["a2@x.org"] = SyncState.Account(standing: .active, nickname: "Abe")
        let plan = SyncPlan(rows: r, state: state, facts: SyncFacts(), prune: .disable, columns: ["nickname"])
        XCTAssertEqual(plan.reenable.map(\.description), ["a1@x.org"])
        var after = state
        after["a1@x.org"]?.standing = .active
        XCTAssertEqual(SyncRun.readBack(plan, managed: after, entries: []).map(\.description), ["a1@x.org"], "enabled: read back")
        XCTAssertEqual(SyncRun.readBack(plan, managed: state, entries: []), [], "still disabled in the state: nothing to confirm")
    }

    /// The refresh asks for the rosters of accounts that have or get roster items; with the
    /// server's shared groups none (a teacher's roster there is the whole school).
    func testTheRefreshReadsRostersOnlyWhereTheFileGivesContacts() throws {
        let text = "username,nickname,groups,contacts\na1,Ann,C,C\na2,Abe,C,\na3,Al,D,\n"
        var configuration = BatchConfiguration()
        configuration.domain = "x.org"
        configuration.generatePasswords = true
        let dir = NSTemporaryDirectory() + "srb-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sheet = { try BatchSheet(input: Array(text.utf8), name: "t", configuration: configuration, baseDirectory: "/") }
        let perAccount = try SyncRun(sheet: try sheet(), configuration: configuration, stateDirectory: dir, domains: ["x.org"])
        // a1 wants its class; a2 is in it, so it gets a1 too; a3 has no pair.
        XCTAssertEqual(perAccount.rostersToRead, ["a1@x.org", "a2@x.org"])
        configuration.sharedGroups = true
        let shared = try SyncRun(sheet: try sheet(), configuration: configuration, stateDirectory: dir + "2", domains: ["x.org"])
        XCTAssertEqual(shared.rostersToRead, [])
    }

    /// The refresh logs in only where a log-in can tell something: profile columns, a roster to
    /// compare, or a server where an account can be disabled (disable-user offered).
    func testTheRefreshSkipsLogInsThatCouldReadNothing() throws {
        let accounts = try ["a1@x.org", "a2@x.org", "b1@y.org"].map { try JID($0) }
        var asked: [String] = []
        let offers = { (domain: String) throws -> Bool in asked.append(domain); return domain == "y.org" }
        XCTAssertEqual(try SyncRun.logInsNeeded(accounts, profileColumns: true, rosters: [], disableOffered: offers), accounts)
        XCTAssertEqual(asked, [], "profile columns: every account, nothing asked")
        XCTAssertEqual(try SyncRun.logInsNeeded(accounts, profileColumns: false, rosters: ["a2@x.org"], disableOffered: offers).map(\.description),
                       ["a2@x.org", "b1@y.org"], "a roster to compare, or a server that can disable accounts")
        XCTAssertEqual(try SyncRun.logInsNeeded(accounts, profileColumns: false, rosters: [], disableOffered: { _ in false }), [],
                       "shared groups, no profile columns, no disable-user: existence is all there is, from the administrator's list")
    }
}
