import TextFormats
import XCTest
@testable import XMPPBatch
@testable import ServerAdmin

/// `sync --rosters shared`'s groups through a school year (issue 36): the plan's steps for a new
/// pupil, a move and a leaver on each server, what sync keeps of them, and that its accounts get
/// no roster items of their own.
final class SyncSharedGroupsTests: XCTestCase {
    private func sheet(_ rows: [String]) throws -> BatchSheet {
        var configuration = BatchConfiguration()
        configuration.domain = "s.example"
        configuration.generatePasswords = true
        let csv = "username,fullname,groups,contacts\n" + rows.joined(separator: "\n") + "\n"
        return try BatchSheet(input: Array(csv.utf8), name: "s.csv", configuration: configuration, baseDirectory: "/")
    }

    private let year1 = ["a1,Ann,Class 5A,Class 5A;Teachers", "a2,Abe,Class 5A,Class 5A;Teachers", "a4,Ada,Class 5A,Class 5A;Teachers",
                         "b1,Bea,Class 5B,Class 5B;Teachers", "b2,Bob,Class 5B,Class 5B;Teachers", "b3,Ben,Class 5B,Class 5B;Teachers",
                         "t1,Tom,Teachers,Teachers"]

    private func groups(_ rows: [String], _ kind: SharedGroups.Kind) throws -> SharedGroups {
        try SharedGroups(sheet: try sheet(rows), kind: kind)
    }

    func testEjabberdPlansOneMemberForANewPupilAMoveAndALeaver() throws {
        let first = SharedGroupsPlan(ejabberd: try groups(year1, .ejabberd), current: [])
        XCTAssertEqual(first.steps.filter { if case .addMember = $0 { return true }; return false }.count, 7)
        XCTAssertEqual(first.steps.prefix(3).map(\.description), ["make group 'Class 5A'", "make group 'Class 5B'", "make group 'Teachers'"])
        let now = first.wanted
        XCTAssertEqual(SharedGroupsPlan(ejabberd: try groups(year1, .ejabberd), current: now).steps, [], "in step: nothing to send")

        let joined = year1 + ["a3,Amy,Class 5A,Class 5A;Teachers"]
        XCTAssertEqual(SharedGroupsPlan(ejabberd: try groups(joined, .ejabberd), current: now).steps.map(\.description),
                       ["add a3@s.example to 'Class 5A'"])
        var moved = year1
        moved[1] = "a2,Abe,Class 5B,Class 5B;Teachers"
        XCTAssertEqual(SharedGroupsPlan(ejabberd: try groups(moved, .ejabberd), current: now).steps.map(\.description),
                       ["remove a2@s.example from 'Class 5A'", "add a2@s.example to 'Class 5B'"])
        let left = year1.filter { !$0.hasPrefix("b2,") }
        XCTAssertEqual(SharedGroupsPlan(ejabberd: try groups(left, .ejabberd), current: now).steps.map(\.description),
                       ["remove b2@s.example from 'Class 5B'"])
        let classGone = year1.filter { !$0.hasPrefix("b") }
        XCTAssertEqual(SharedGroupsPlan(ejabberd: try groups(classGone, .ejabberd), current: now).steps.map(\.description),
                       ["set group 'Teachers' to show 'Class 5A'", "delete group 'Class 5B'"])
    }

    func testProsodyPlansTheSameMembershipLinesThenTheWriteAndTheReload() throws {
        let first = SharedGroupsPlan.sync(prosody: try groups(year1, .prosody), existing: nil, path: "/g", state: nil)
        XCTAssertEqual(first.steps.suffix(2), [.writeFile(path: "/g"), .reloadGroups(host: "s.example")])
        let file = Array(try groups(year1, .prosody).prosodyFile().utf8)
        let loaded = first.appliedState
        XCTAssertEqual(loaded.loadedFileSHA256?.count, 64)
        XCTAssertEqual(SharedGroupsPlan.sync(prosody: try groups(year1, .prosody), existing: file, path: "/g", state: loaded).steps, [])
        // Written, but the reload never seen (a run stopped between them): only the reload.
        XCTAssertEqual(SharedGroupsPlan.sync(prosody: try groups(year1, .prosody), existing: file, path: "/g", state: nil).steps,
                       [.reloadGroups(host: "s.example")])
        var moved = year1
        moved[1] = "a2,Abe,Class 5B,Class 5B;Teachers"
        // Prosody's model: teachers are members of each class.
        XCTAssertEqual(SharedGroupsPlan.sync(prosody: try groups(moved, .prosody), existing: file, path: "/g", state: loaded).steps.map(\.description),
                       ["remove a2@s.example from 'Class 5A'", "add a2@s.example to 'Class 5B'", "write /g", "reload mod_groups on s.example"])
        let joined = year1 + ["a3,Amy,Class 5A,Class 5A;Teachers"]
        XCTAssertEqual(SharedGroupsPlan.sync(prosody: try groups(joined, .prosody), existing: file, path: "/g", state: loaded).changes, 1)
    }

    func testTheGroupsStateRoundTripsAndRefusesWhatIsNotOne() throws {
        let dir = NSTemporaryDirectory() + "sgs-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertNil(try SyncGroupsState.load(domain: "s.example", stateDirectory: dir))
        let state = SharedGroupsPlan(ejabberd: try groups(year1, .ejabberd), current: []).appliedState
        try state.save(domain: "s.example", stateDirectory: dir)
        XCTAssertEqual(try SyncGroupsState.load(domain: "s.example", stateDirectory: dir)?.groups.sorted { $0.id < $1.id },
                       state.groups.sorted { $0.id < $1.id })
        let path = SyncGroupsState.path(domain: "s.example", stateDirectory: dir)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try SyncGroupsState.load(domain: "s.example", stateDirectory: dir))
        XCTAssertThrowsError(try state.save(domain: "../x", stateDirectory: dir))
    }

    func testSyncPlansNoRosterItemsWhenTheServersGroupsGiveThem() throws {
        let dir = NSTemporaryDirectory() + "sgs-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var configuration = BatchConfiguration()
        configuration.domain = "s.example"
        configuration.generatePasswords = true
        let perAccount = try SyncRun(sheet: try sheet(year1), configuration: configuration, stateDirectory: dir, domains: ["s.example"])
        XCTAssertEqual(perAccount.plan(prune: .disable).rosters.count, 7)
        configuration.sharedGroups = true
        let shared = try SyncRun(sheet: try sheet(year1), configuration: configuration, stateDirectory: dir + "2", domains: ["s.example"])
        let plan = shared.plan(prune: .disable)
        XCTAssertEqual(plan.creations.count, 7)
        XCTAssertEqual(plan.rosters, [])
    }

    /// The host reaches Prosody's admin shell as a Lua string: bytes, never code.
    func testTheHostIsALuaStringWhateverItHolds() {
        XCTAssertEqual(ProsodyShell.luaString("school.example"), "\"school.example\"")
        XCTAssertEqual(ProsodyShell.luaString("a\"]..x"), "\"a\\034\\093..x\"")
        XCTAssertEqual(ProsodyShell.luaString("é\n"), "\"\\195\\169\\010\"")
    }

    /// ejabberdctl prints srg_get_info's displayed groups as 24.12 lists them.
    func testEjabberdctlsDisplayedGroupsAreRead() {
        XCTAssertEqual(EjabberdCtl.displayed(#"["class-5a-8c",", ","teachers-1f"]"#), ["class-5a-8c", "teachers-1f"])
        XCTAssertEqual(EjabberdCtl.displayed("[]"), [])
        XCTAssertEqual(EjabberdCtl.displayed("a, b"), ["a", "b"])
        XCTAssertEqual(EjabberdCtl.displayed(""), [])
        // The VM's reports before the result are not items of it.
        let output = "=ERROR REPORT==== 4-Dec-2026::21:41:38.723776 ===\nfile:path_eval([\"/var/lib/ejabberd\",\n    \"/h/erlang\"],\".erlang\"): permission denied\n\ng1\ng2\n"
        XCTAssertEqual(EjabberdCtl.withoutReports(output).filter { !$0.isEmpty }, ["g1", "g2"])
        // A long list wraps; its next line carries on the value.
        let info = EjabberdCtl.pairs(["label\tClass A", "displayed_groups\t[\"class-a-e6\",\", \",", " \"teachers-cb\"]",
                                      "description\txmpp-register shared-groups"])
        XCTAssertEqual(EjabberdCtl.displayed(info["displayed_groups"] ?? ""), ["class-a-e6", "teachers-cb"])
        XCTAssertEqual(info["label"], "Class A")
        XCTAssertEqual(info["description"], "xmpp-register shared-groups")
    }
}
