import Foundation
import XCTest
import XMPPStanzas
import XMPPStorage
@testable import XMPPBatch

/// `xmpp-register sync`'s plan: the file against what sync applied last (its state) and what the
/// server offers. Pure, so every case is a sheet and a state.
final class SyncPlanTests: XCTestCase {
    private let school = """
        username,fullname,groups,contacts,avatar
        t1,Tess Teacher,Teachers,Teachers,
        t2,Tom Teacher,Teachers,Teachers,
        a1,Ann,Class 5A,Class 5A;Teachers,
        a2,Abe,Class 5A,Class 5A;Teachers,
        b1,Bea,Class 5B,Class 5B;Teachers,
        b2,Bob,Class 5B,Class 5B;Teachers,

        """

    private func rows(_ csv: String) throws -> [BatchRow] {
        let sheet = try syncSheet(csv)
        XCTAssertEqual(sheet.invalid, [])
        return sheet.validRows
    }

    /// The state a run of `plan` over `rows` leaves when everything succeeds.
    private func applied(_ plan: SyncPlan, _ rows: [BatchRow], facts: SyncFacts = SyncFacts(),
                         base: [String: SyncState.Account] = [:]) -> [String: SyncState.Account] {
        var state = base
        for row in rows {
            state[row.jid.description] = SyncState.Account(
                nickname: row.profile.nickname, fullname: row.profile.fullname, email: row.profile.email,
                avatar: row.profile.avatar.flatMap { facts.avatarDigests[$0.key] }, contacts: plan.wanted[row.line] ?? [])
        }
        return state
    }

    private func jids(_ list: [JID]) -> [String] { list.map(\.description).sorted() }

    func testAFirstSyncCreatesEveryAccountAndEveryRoster() throws {
        let r = try rows(school)
        let plan = SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable)
        XCTAssertEqual(plan.creations.map(\.jid.description), r.map(\.jid.description))
        XCTAssertTrue(plan.creations.allSatisfy { $0.recreated == nil })
        XCTAssertEqual(plan.rosters.count, 6)
        XCTAssertEqual(jids(plan.rosters.first { $0.jid.description == "a1@x.org" }?.add.map(\.jid) ?? []),
                       ["a2@x.org", "t1@x.org", "t2@x.org"])
        XCTAssertTrue(plan.leavers.isEmpty)
        XCTAssertFalse(plan.isEmpty)
        let entries = plan.journalEntries(for: r)
        XCTAssertEqual(Set(entries.map(\.status)), [.pending])
        XCTAssertEqual(Set(entries.map(\.roster)), ["pending"])
    }

    func testTheSameFileAgainPlansNothing() throws {
        let r = try rows(school)
        let first = SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable)
        let second = SyncPlan(rows: r, state: applied(first, r), facts: SyncFacts(), prune: .disable)
        XCTAssertTrue(second.isEmpty)
        XCTAssertEqual(second.unchanged, 6)
        XCTAssertEqual(second.managed, 6)
        XCTAssertTrue(second.creations.isEmpty && second.profiles.isEmpty && second.rosters.isEmpty && second.leavers.isEmpty)
        let entries = second.journalEntries(for: r)
        XCTAssertEqual(Set(entries.map(\.status)), [.exists], "nobody is logged in to")
        XCTAssertEqual(Set(entries.map(\.roster)), ["unchanged"])
    }

    func testAChangedNameIsOneFieldOfOneAccount() throws {
        let r = try rows(school)
        let state = applied(SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable), r)
        let renamed = try rows(school.replacingOccurrences(of: "a1,Ann,", with: "a1,Ann Smith,"))
        let plan = SyncPlan(rows: renamed, state: state, facts: SyncFacts(), prune: .disable)
        XCTAssertEqual(plan.profiles.count, 1)
        XCTAssertEqual(plan.profiles.first?.jid.description, "a1@x.org")
        XCTAssertEqual(plan.profiles.first?.fields, [SyncPlan.FieldChange(field: "fullname", from: "Ann", to: "Ann Smith")])
        XCTAssertEqual(plan.profiles.first?.avatar, false)
        // The contacts' roster items are named by the fullname: theirs change too (a rename, no add or remove).
        XCTAssertEqual(jids(plan.rosters.map(\.jid)), ["a2@x.org", "t1@x.org", "t2@x.org"])
        XCTAssertTrue(plan.rosters.allSatisfy { $0.add.isEmpty && $0.remove.isEmpty && $0.update.map(\.name) == ["Ann Smith"] })
        let entries = plan.journalEntries(for: renamed)
        XCTAssertEqual(entries.filter { $0.status == .conflict }.map(\.jid), ["a1@x.org"], "only a1 logs in for its profile")
        XCTAssertTrue(plan.creations.isEmpty && plan.leavers.isEmpty)
    }

    func testAnEmptiedCellClearsTheFieldAndANewEmailReplacesTheOld() throws {
        let csv = "username,fullname,email\na1,Ann,ann@mail.example\na2,Abe,abe@mail.example\n"
        let r = try rows(csv)
        let state = applied(SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable), r)
        let next = try rows("username,fullname,email\na1,Ann,\na2,,abe@new.example\n")
        let plan = SyncPlan(rows: next, state: state, facts: SyncFacts(), prune: .disable, columns: ["fullname", "email"])
        let a1 = plan.profiles.first { $0.jid.description == "a1@x.org" }
        XCTAssertEqual(a1?.fields, [SyncPlan.FieldChange(field: "email", from: "ann@mail.example", to: nil)])
        let a2 = plan.profiles.first { $0.jid.description == "a2@x.org" }
        XCTAssertEqual(a2?.fields, [SyncPlan.FieldChange(field: "fullname", from: "Abe", to: nil),
                                    SyncPlan.FieldChange(field: "email", from: "abe@mail.example", to: "abe@new.example")])
        // The log-in's edit: the cleared field emptied, the old address out, the new one in;
        // an address the user added stays.
        var card = VCard()
        card.fullName = "Abe"
        card.emails = [VCard.Email(address: "abe@mail.example", types: ["internet"]), VCard.Email(address: "own@home.example", types: [])]
        ProfileApplier.edit(&card, with: Profile(email: "abe@new.example", cleared: ["fullname"], replacedEmail: "abe@mail.example"))
        XCTAssertNil(card.fullName)
        XCTAssertEqual(card.emails.map(\.address), ["own@home.example", "abe@new.example"])
    }

    func testAColumnTheFileDoesNotHaveIsNotManaged() throws {
        let r = try rows(school)
        let state = applied(SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable), r)
        var cleared = state
        cleared["a1@x.org"]?.nickname = "Annie"  // applied earlier; the file has no nickname column now
        XCTAssertTrue(SyncPlan(rows: r, state: cleared, facts: SyncFacts(), prune: .disable, columns: ["fullname", "avatar"]).isEmpty)
        // Had the file a nickname column, its empty cell would clear the field.
        let plan = SyncPlan(rows: r, state: cleared, facts: SyncFacts(), prune: .disable, columns: ["nickname", "fullname", "avatar"])
        XCTAssertEqual(plan.profiles.map(\.fields), [[SyncPlan.FieldChange(field: "nickname", from: "Annie", to: nil)]])
    }

    func testAMovedPupilChangesBothClassesRostersBothSides() throws {
        let r = try rows(school)
        let state = applied(SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable), r)
        let moved = try rows(school.replacingOccurrences(of: "a2,Abe,Class 5A,Class 5A;Teachers", with: "a2,Abe,Class 5B,Class 5B;Teachers"))
        let plan = SyncPlan(rows: moved, state: state, facts: SyncFacts(), prune: .disable)
        func change(_ jid: String) -> SyncPlan.RosterChange? { plan.rosters.first { $0.jid.description == jid } }
        XCTAssertEqual(jids(change("a2@x.org")?.add.map(\.jid) ?? []), ["b1@x.org", "b2@x.org"])
        XCTAssertEqual(jids(change("a2@x.org")?.remove ?? []), ["a1@x.org"])
        XCTAssertEqual(jids(change("a1@x.org")?.remove ?? []), ["a2@x.org"], "the old class loses the pupil")
        XCTAssertEqual(jids(change("b1@x.org")?.add.map(\.jid) ?? []), ["a2@x.org"], "the new class gets it")
        XCTAssertEqual(jids(change("b2@x.org")?.add.map(\.jid) ?? []), ["a2@x.org"])
        XCTAssertEqual(change("t1@x.org")?.update.map(\.groups), [["Class 5B"]], "the teachers file it under its new class")
        XCTAssertTrue(plan.profiles.isEmpty && plan.creations.isEmpty && plan.leavers.isEmpty)
        XCTAssertEqual(plan.unchanged, 0)
    }

    func testANewPhotoIsReplacedAndTheSamePhotoIsNot() throws {
        // (The validator reads the image; the plan only compares digests.)
        var r = try rows(school)
        r[5].profile.avatar = .file("/img/bob.png")
        let facts = SyncFacts(avatarDigests: ["file:/img/bob.png": "aaaa"])
        let state = applied(SyncPlan(rows: r, state: [:], facts: facts, prune: .disable), r, facts: facts)
        XCTAssertTrue(SyncPlan(rows: r, state: state, facts: facts, prune: .disable).isEmpty)
        let plan = SyncPlan(rows: r, state: state, facts: SyncFacts(avatarDigests: ["file:/img/bob.png": "bbbb"]), prune: .disable)
        XCTAssertEqual(plan.profiles, [SyncPlan.ProfileChange(line: 7, jid: try JID("b2@x.org"), fields: [], avatar: true)])
    }

    func testALeaverIsDisabledWhereOfferedAndLeavesEveryRoster() throws {
        let r = try rows(school)
        let state = applied(SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable), r)
        let without = try rows(school.replacingOccurrences(of: "b2,Bob,Class 5B,Class 5B;Teachers,\n", with: ""))
        let plan = SyncPlan(rows: without, state: state, facts: SyncFacts(disableOffered: ["x.org": true]), prune: .disable)
        XCTAssertEqual(plan.leavers, [SyncPlan.Leaver(jid: try JID("b2@x.org"), action: .disable, wasDisabled: false)])
        XCTAssertEqual(plan.removals, 1)
        XCTAssertEqual(jids(plan.rosters.map(\.jid)), ["b1@x.org", "t1@x.org", "t2@x.org"])
        XCTAssertTrue(plan.rosters.allSatisfy { jids($0.remove) == ["b2@x.org"] && $0.add.isEmpty })
    }

    func testWithoutDisableUserTheLeaverIsKeptAndPruneDeleteDeletes() throws {
        let r = try rows(school)
        let state = applied(SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable), r)
        let without = try rows(school.replacingOccurrences(of: "b2,Bob,Class 5B,Class 5B;Teachers,\n", with: ""))
        let kept = SyncPlan(rows: without, state: state, facts: SyncFacts(disableOffered: ["x.org": false]), prune: .disable)
        XCTAssertEqual(kept.leavers.map(\.action), [.cannotDisable])
        XCTAssertEqual(kept.removals, 0)
        let deleted = SyncPlan(rows: without, state: state, facts: SyncFacts(), prune: .delete)
        XCTAssertEqual(deleted.leavers.map(\.action), [.delete])
        XCTAssertEqual(deleted.removals, 1)
        // Disabled earlier: nothing more by default, deleted with --prune delete.
        var disabled = state
        disabled["b2@x.org"]?.standing = .disabled
        XCTAssertTrue(SyncPlan(rows: without, state: disabled, facts: SyncFacts(), prune: .disable).leavers.isEmpty)
        XCTAssertEqual(SyncPlan(rows: without, state: disabled, facts: SyncFacts(), prune: .delete).leavers,
                       [SyncPlan.Leaver(jid: try JID("b2@x.org"), action: .delete, wasDisabled: true)])
    }

    func testAnAccountDeletedOutsideIsCreatedAgainWithANote() throws {
        let r = try rows(school)
        var state = applied(SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable), r)
        state["a1@x.org"] = SyncState.Account(standing: .deleted, note: "by xmpp-register delete --admin on 2026-12-01")
        let plan = SyncPlan(rows: r, state: state, facts: SyncFacts(), prune: .disable)
        XCTAssertEqual(plan.creations.map(\.jid.description), ["a1@x.org"])
        XCTAssertEqual(plan.creations.first?.recreated,
                       "deleted by xmpp-register delete --admin on 2026-12-01: created again, with a new password")
        XCTAssertTrue(plan.leavers.isEmpty, "a deleted account is no leaver")
        // Its roster is emptied and made again, and each contact asks for its subscription anew.
        XCTAssertEqual(plan.rosterResets, [4])
        XCTAssertEqual(jids(plan.rosters.filter { $0.update.map(\.jid.description) == ["a1@x.org"] }.map(\.jid)),
                       ["a2@x.org", "t1@x.org", "t2@x.org"])
        XCTAssertEqual(plan.unchanged, 2, "b1 and b2 only")
    }

    func testADisabledAccountBackInTheFileIsEnabled() throws {
        let r = try rows(school)
        var state = applied(SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable), r)
        state["b2@x.org"]?.standing = .disabled
        state["b2@x.org"]?.contacts = []  // as leaving left it
        let plan = SyncPlan(rows: r, state: state, facts: SyncFacts(), prune: .disable)
        XCTAssertEqual(jids(plan.reenable), ["b2@x.org"])
        XCTAssertEqual(jids(plan.rosters.first { $0.jid.description == "b2@x.org" }?.add.map(\.jid) ?? []),
                       ["b1@x.org", "t1@x.org", "t2@x.org"], "its roster is made again")
    }

    func testAnAccountSyncDidNotCreateIsLeftAloneEveryTime() throws {
        let r = try rows(school)
        var state = applied(SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable), r)
        state["t2@x.org"] = SyncState.Account(standing: .notManaged)  // the administrator's own, say
        for key in state.keys where key != "t2@x.org" { state[key]?.contacts.removeAll { $0.jid.description == "t2@x.org" } }
        let plan = SyncPlan(rows: r, state: state, facts: SyncFacts(), prune: .disable)
        XCTAssertEqual(jids(plan.notManaged), ["t2@x.org"])
        XCTAssertTrue(plan.isEmpty, "nothing to do for it, and nobody's roster gets it")
        let without = try rows(school.replacingOccurrences(of: "t2,Tom Teacher,Teachers,Teachers,\n", with: ""))
        XCTAssertTrue(SyncPlan(rows: without, state: state, facts: SyncFacts(disableOffered: ["x.org": true]), prune: .delete).leavers.isEmpty,
                      "never disabled or deleted")
    }

    func testAWholeGroupLeavingIsNamed() throws {
        let r = try rows(school)
        let state = applied(SyncPlan(rows: r, state: [:], facts: SyncFacts(), prune: .disable), r)
        let without5B = try rows(school.replacingOccurrences(of: "b1,Bea,Class 5B,Class 5B;Teachers,\n", with: "")
            .replacingOccurrences(of: "b2,Bob,Class 5B,Class 5B;Teachers,\n", with: ""))
        let plan = SyncPlan(rows: without5B, state: state, facts: SyncFacts(disableOffered: ["x.org": true]), prune: .disable)
        XCTAssertEqual(plan.groupsLeaving, [SyncPlan.GroupLeaving(name: "Class 5B", accounts: 2)])
        let oneLeaves = try rows(school.replacingOccurrences(of: "b2,Bob,Class 5B,Class 5B;Teachers,\n", with: ""))
        XCTAssertEqual(SyncPlan(rows: oneLeaves, state: state, facts: SyncFacts(disableOffered: ["x.org": true]), prune: .disable).groupsLeaving, [])
    }

    func testTheRemovalLimit() {
        XCTAssertEqual(SyncPlan.defaultRemovalLimit(managed: 10), 5)
        XCTAssertEqual(SyncPlan.defaultRemovalLimit(managed: 60), 6)
        XCTAssertEqual(SyncPlan.defaultRemovalLimit(managed: 320), 32)
    }

    func testTheStateIsAPrivateFileThatReadsBack() throws {
        let directory = NSTemporaryDirectory() + "sync-state-\(getpid())-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var state = SyncState(domain: "x.org")
        XCTAssertEqual(try SyncState.load(domain: "x.org", stateDirectory: directory), state, "no file: nothing managed")
        state.accounts["a1@x.org"] = SyncState.Account(fullname: "Ann \"A\" Ångström", avatar: "ab12",
                                                       contacts: [RosterItem(jid: try JID("t1@x.org"), name: "Tess", groups: ["Teachers", "Staff"])])
        state.accounts["b2@x.org"] = SyncState.Account(standing: .disabled, note: "by sync on 2026-12-03")
        try state.save(stateDirectory: directory)
        XCTAssertEqual(try SyncState.load(domain: "x.org", stateDirectory: directory), state)
        let path = SyncState.path(domain: "x.org", stateDirectory: directory)
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
        XCTAssertEqual(mode, 0o600)
        let dirMode = (try FileManager.default.attributesOfItem(atPath: directory + "/sync")[.posixPermissions] as? NSNumber)?.intValue
        XCTAssertEqual(dirMode, 0o700)
        try SyncState.noteDeletedOutside(try JID("a1@x.org"), how: "by hand", stateDirectory: directory)
        XCTAssertEqual(try SyncState.load(domain: "x.org", stateDirectory: directory).accounts["a1@x.org"]?.standing, .deleted)
        try SyncState.noteDeletedOutside(try JID("zz@x.org"), how: "by hand", stateDirectory: directory)
        XCTAssertNil(try SyncState.load(domain: "x.org", stateDirectory: directory).accounts["zz@x.org"], "not managed: not recorded")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        XCTAssertThrowsError(try SyncState.load(domain: "x.org", stateDirectory: directory), "not a sync state: refused")
        for bad in ["../x", "..", "a/b", "u@x.org"] {
            XCTAssertThrowsError(try SyncState.load(domain: bad, stateDirectory: directory), "\(bad): no path made of it")
        }
    }

    /// A deletion outside sync is recorded in a state of any size sync itself reads: the check
    /// for a state once read the file with a 16 MiB limit and took a larger one for none.
    func testADeletionOutsideSyncIsRecordedInAStateLargerThan16MiB() throws {
        let directory = NSTemporaryDirectory() + "sync-state-large-\(getpid())-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var state = SyncState(domain: "x.org")
        let note = String(repeating: "n", count: 4096)
        for i in 0..<4500 { state.accounts["u\(i)@x.org"] = SyncState.Account(note: note) }
        try state.save(stateDirectory: directory)
        let size = try FileManager.default.attributesOfItem(atPath: SyncState.path(domain: "x.org", stateDirectory: directory))[.size] as? NSNumber
        XCTAssertGreaterThan(size?.intValue ?? 0, 16 << 20)
        try SyncState.noteDeletedOutside(try JID("u7@x.org"), how: "by hand", stateDirectory: directory)
        XCTAssertEqual(try SyncState.load(domain: "x.org", stateDirectory: directory).accounts["u7@x.org"]?.standing, .deleted)
    }
}
