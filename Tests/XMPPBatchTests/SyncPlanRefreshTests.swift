import Foundation
import XCTest
import XMPPStanzas
@testable import XMPPBatch

/// `xmpp-register sync`'s plan against what the refresh read of the server: drift (an account
/// deleted or disabled on the server, a managed contact removed or a subscription lost) is
/// planned back to what the file says; an account whose password changed is unverified, never
/// drift; contacts the users added are never looked at.
final class SyncPlanRefreshTests: XCTestCase {
    private let school = """
        username,fullname,groups,contacts
        t1,Tess Teacher,Teachers,Teachers
        a1,Ann,Class 5A,Class 5A;Teachers
        a2,Abe,Class 5A,Class 5A;Teachers

        """

    private func rows() throws -> [BatchRow] {
        var configuration = BatchConfiguration()
        configuration.domain = "x.org"
        configuration.generatePasswords = true
        let sheet = try BatchSheet(input: Array(school.utf8), name: "test", configuration: configuration, baseDirectory: "/")
        return sheet.rows.compactMap { if case .valid(let r) = $0 { return r } else { return nil } }
    }

    /// The state after a first sync that went through, and a refresh that finds the server so.
    private func synced() throws -> (rows: [BatchRow], state: [String: SyncState.Account], refresh: SyncRefresh) {
        let r = try rows()
        let first = SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable)
        var state: [String: SyncState.Account] = [:]
        var refresh = SyncRefresh(existing: ["x.org": Set(r.map(\.jid.bare))])
        for row in r {
            let contacts = first.wanted[row.line] ?? []
            state[row.jid.description] = SyncState.Account(fullname: row.profile.fullname, contacts: contacts)
            refresh.readings[row.jid.description] = .roster(contacts.map {
                RosterItem(jid: $0.jid, name: $0.name, subscription: .both, groups: $0.groups)
            })
        }
        return (r, state, refresh)
    }

    private func jid(_ text: String) -> JID { try! JID(text) }

    func testAServerAsSyncLeftItPlansNothing() throws {
        let (r, state, refresh) = try synced()
        let plan = SyncPlan(rows: r, state: state, facts: SyncFacts(refresh: refresh), prune: .disable)
        XCTAssertTrue(plan.isEmpty)
        XCTAssertTrue(plan.drift.isEmpty)
        XCTAssertTrue(plan.refreshed)
        XCTAssertEqual(plan.unchanged, 3)
        // What the users added themselves is not looked at.
        var added = refresh
        added.readings["a1@x.org"] = .roster([RosterItem(jid: jid("friend@y.org"), subscription: .both)]
            + (state["a1@x.org"]?.contacts ?? []).map { RosterItem(jid: $0.jid, name: $0.name, subscription: .both, groups: $0.groups) })
        XCTAssertTrue(SyncPlan(rows: r, state: state, facts: SyncFacts(refresh: added), prune: .disable).isEmpty)
    }

    func testAnAccountDeletedOnTheServerIsCreatedAgainWithANewPassword() throws {
        var (r, state, refresh) = try synced()
        refresh.existing["x.org"]?.remove(jid("a2@x.org"))
        refresh.readings["a2@x.org"] = nil
        let plan = SyncPlan(rows: r, state: state, facts: SyncFacts(refresh: refresh), prune: .disable)
        XCTAssertEqual(plan.creations.map(\.jid.description), ["a2@x.org"])
        XCTAssertEqual(plan.creations.first?.recreated, "deleted on the server: created again, with a new password")
        XCTAssertEqual(plan.drift, [SyncPlan.Drift(jid: jid("a2@x.org"), what: "deleted on the server", action: "created again, with a new password")])
        // Its contacts are new to it: both sides' roster passes, and its old roster is reset.
        XCTAssertTrue(plan.rosters.contains { $0.jid.description == "a1@x.org" && $0.update.map(\.jid.description) == ["a2@x.org"] })
        XCTAssertFalse(plan.rosterResets.isEmpty)
        // Without the refresh, the same state plans nothing: today's fast path.
        state["a2@x.org"]?.note = nil
        XCTAssertTrue(SyncPlan(rows: r, state: state, facts: SyncFacts(), prune: .disable).isEmpty)
    }

    func testAnAccountDisabledOnTheServerIsEnabled() throws {
        var (r, state, refresh) = try synced()
        refresh.readings["t1@x.org"] = .disabled
        let plan = SyncPlan(rows: r, state: state, facts: SyncFacts(refresh: refresh), prune: .disable)
        XCTAssertEqual(plan.reenable.map(\.description), ["t1@x.org"])
        XCTAssertEqual(plan.drift.map(\.what), ["disabled on the server"])
        XCTAssertFalse(plan.isEmpty)
        _ = r
        _ = state
    }

    func testAChangedPasswordIsUnverifiedNotDrift() throws {
        var (r, state, refresh) = try synced()
        refresh.readings["a1@x.org"] = .notVerifiable("the password in the report does not log in")
        let plan = SyncPlan(rows: r, state: state, facts: SyncFacts(refresh: refresh), prune: .disable)
        XCTAssertTrue(plan.isEmpty)
        XCTAssertTrue(plan.drift.isEmpty)
        XCTAssertEqual(plan.unverified.map(\.jid.description), ["a1@x.org"])
        _ = state
    }

    func testAContactRemovedByItsUserIsAddedAgainAndALostSubscriptionAskedAgain() throws {
        var (r, state, refresh) = try synced()
        let a1 = state["a1@x.org"]?.contacts ?? []
        // a1 removed a2; the server left a2's item for a1 with no subscription.
        refresh.readings["a1@x.org"] = .roster(a1.filter { $0.jid.description != "a2@x.org" }.map {
            RosterItem(jid: $0.jid, name: $0.name, subscription: .both, groups: $0.groups)
        })
        let a2 = state["a2@x.org"]?.contacts ?? []
        refresh.readings["a2@x.org"] = .roster(a2.map {
            RosterItem(jid: $0.jid, name: $0.name, subscription: $0.jid.description == "a1@x.org" ? .none : .both, groups: $0.groups)
        })
        let plan = SyncPlan(rows: r, state: state, facts: SyncFacts(refresh: refresh), prune: .disable)
        XCTAssertEqual(plan.drift.map(\.what).sorted(), ["contact a1@x.org: subscription 'none' on the server", "contact a2@x.org removed by its user"])
        XCTAssertEqual(plan.rosters.first { $0.jid.description == "a1@x.org" }?.add.map(\.jid.description), ["a2@x.org"])
        XCTAssertEqual(plan.rosters.first { $0.jid.description == "a2@x.org" }?.update.map(\.jid.description), ["a1@x.org"])
        XCTAssertEqual(plan.unchanged, 1)
        _ = state
    }

    func testALeaverAlreadyDeletedOnTheServerIsOnlyForgotten() throws {
        var (r, state, refresh) = try synced()
        state["gone@x.org"] = SyncState.Account()
        refresh.existing["x.org"]?.remove(jid("gone@x.org"))
        let plan = SyncPlan(rows: r, state: state, facts: SyncFacts(refresh: refresh), prune: .disable)
        XCTAssertEqual(plan.leavers.map(\.action), [.gone])
        XCTAssertEqual(plan.removals, 0)
        XCTAssertFalse(plan.isEmpty, "the state forgets it")
        r = []
    }

    func testAdoptedAccountsComeFirstAndOneWithoutAPasswordIsInNoRoster() throws {
        let r = try rows()
        // t1 made by batch (password known), a1 by hand (none); a2 is new.
        let state: [String: SyncState.Account] = [
            "t1@x.org": SyncState.Account(fullname: "Tess Teacher"),
            "a1@x.org": SyncState.Account(fullname: "Ann", withoutPassword: true),
        ]
        var facts = SyncFacts()
        facts.adopted = ["t1@x.org": true, "a1@x.org": false]
        let plan = SyncPlan(rows: r, state: state, facts: facts, prune: .disable)
        XCTAssertEqual(plan.adoptions.map(\.jid.description), ["t1@x.org", "a1@x.org"])
        XCTAssertEqual(plan.adoptions.map(\.withPassword), [true, false])
        XCTAssertEqual(plan.creations.map(\.jid.description), ["a2@x.org"])
        XCTAssertNil(plan.rosters.first { $0.jid.description == "a1@x.org" }, "its roster is not managed")
        for change in plan.rosters {
            XCTAssertFalse((change.add + change.update).contains { $0.jid.description == "a1@x.org" }, "nobody's roster gets it: \(change)")
        }
        XCTAssertFalse(plan.isEmpty)
    }

    func testAnAccountMadeBeforeSyncIsNotCreatedButSkippedNamingAdopt() throws {
        let r = try rows()
        let refresh = SyncRefresh(existing: ["x.org": [jid("t1@x.org")]])
        let plan = SyncPlan(rows: r, state: [:], facts: SyncFacts(refresh: refresh), prune: .disable)
        XCTAssertEqual(plan.creations.map(\.jid.description), ["a1@x.org", "a2@x.org"])
        XCTAssertEqual(plan.notManaged.map(\.description), ["t1@x.org"])
        XCTAssertEqual(plan.existedBefore, [jid("t1@x.org")])
        XCTAssertFalse(plan.rosters.contains { ($0.add + $0.update).contains { $0.jid.description == "t1@x.org" } },
                       "no roster gets an account sync does not manage")
    }

    func testAGroupsColumnWithoutContactsIsWarnedAbout() throws {
        let directory = NSTemporaryDirectory() + "sync-notes-\(getpid())-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = BatchConfiguration()
        configuration.domain = "x.org"
        configuration.generatePasswords = true
        func notes(_ csv: String) throws -> [String] {
            let sheet = try BatchSheet(input: Array(csv.utf8), name: "test", configuration: configuration, baseDirectory: "/")
            return try SyncRun(sheet: sheet, configuration: configuration, stateDirectory: directory, domains: []).fileNotes
        }
        let warned = try notes("username,groups\na1,Class 5A\n")
        XCTAssertEqual(warned.count, 1)
        XCTAssertTrue(warned.first?.contains("no contacts column, so sync makes no roster") ?? false, "\(warned)")
        XCTAssertEqual(try notes("username,groups,contacts\na1,Class 5A,Class 5A\n"), [])
        XCTAssertEqual(try notes("username\na1\n"), [])
    }

    func testAnAccountAdoptedWithoutItsPasswordStaysSoInTheState() throws {
        let directory = NSTemporaryDirectory() + "sync-adopt-\(getpid())-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var state = SyncState(domain: "x.org")
        state.accounts["h@x.org"] = SyncState.Account(note: "adopted by sync on 2026-12-04", withoutPassword: true)
        state.accounts["b@x.org"] = SyncState.Account(fullname: "Bea")
        try state.save(stateDirectory: directory)
        XCTAssertEqual(try SyncState.load(domain: "x.org", stateDirectory: directory), state)
    }

    func testAProfileFieldChangedOnTheServerIsDriftAndTheFileWins() throws {
        var (r, state, refresh) = try synced()
        refresh.profiles = ["a1@x.org": SyncRefresh.LiveProfile(fullname: "xXx"), "a2@x.org": SyncRefresh.LiveProfile(fullname: "Abe"),
                            "t1@x.org": SyncRefresh.LiveProfile(fullname: "Tess Teacher")]
        let plan = SyncPlan(rows: r, state: state, facts: SyncFacts(refresh: refresh), prune: .disable)
        XCTAssertEqual(plan.drift, [SyncPlan.Drift(jid: jid("a1@x.org"), what: "fullname changed on the server: 'xXx'", action: "'Ann' from the file")])
        XCTAssertEqual(plan.profiles.map(\.jid.description), ["a1@x.org"])
        XCTAssertEqual(plan.profiles.first?.fields, [SyncPlan.FieldChange(field: "fullname", from: "xXx", to: "Ann")])
        // A column the file does not have is not compared (the school has no nickname column).
        refresh.profiles["a2@x.org"]?.nickname = "Abby"
        XCTAssertEqual(SyncPlan(rows: r, state: state, facts: SyncFacts(refresh: refresh), prune: .disable, columns: ["fullname"]).profiles.count, 1)
        state["a2@x.org"]?.note = nil
    }

    func testAnEmailRemovedOnTheServerIsAddedAgainAndAUsersOwnAddressIsNotLookedAt() {
        let known = SyncState.Account(email: "ann@school.example")
        var profile = ProfileColumns()
        profile.email = "ann@school.example"
        let removed = SyncPlan.liveFieldChanges(profile, known, SyncRefresh.LiveProfile(emails: ["own@home.example"]), columns: ["email"])
        XCTAssertEqual(removed.fields, [SyncPlan.FieldChange(field: "email", from: nil, to: "ann@school.example")])
        XCTAssertEqual(removed.drift.map(\.what), ["email ann@school.example removed on the server"])
        let kept = SyncPlan.liveFieldChanges(profile, known, SyncRefresh.LiveProfile(emails: ["own@home.example", "ann@school.example"]),
                                             columns: ["email"])
        XCTAssertTrue(kept.fields.isEmpty && kept.drift.isEmpty)
    }
}
