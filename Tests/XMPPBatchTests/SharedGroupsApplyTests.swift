import ServerAdmin
import TextFormats
import XCTest
@testable import XMPPBatch

/// The changes `shared-groups --apply` sends to ejabberd: only what differs, groups before
/// their displays, removals before additions, and never a group another tool made.
final class SharedGroupsApplyTests: XCTestCase {
    private func group(_ id: String, _ members: [String], displays: [String] = [], description: String = SharedGroups.marker) -> EjabberdAPI.SharedGroup {
        EjabberdAPI.SharedGroup(id: id, label: id.uppercased(), description: description, displays: displays, members: Set(members))
    }

    func testAFirstRunMakesGroupsThenDisplaysThenMembers() {
        let wanted = [group("a", ["p1@x"], displays: ["a", "t"]), group("t", ["t1@x"], displays: ["a", "t"])]
        let steps = SharedGroupsApply.ejabberdSteps(wanted: wanted, current: [])
        XCTAssertEqual(steps.map(\.description), [
            "make group 'A'", "make group 'T'",
            "set group 'A' to show 'A', 'T'", "set group 'T' to show 'A', 'T'",
            "add p1@x to 'A'", "add t1@x to 'T'",
        ])
    }

    func testOnlyTheDifferencesAreSent() {
        let current = [group("a", ["p1@x", "p2@x"], displays: ["a"]), group("b", ["p3@x"], displays: ["b"]),
                       group("old-1234abcd", ["p1@x"]), group("theirs", ["z@x"], description: "made by hand")]
        // p2 moves to b, p4 is new in b, the old-named group of ours goes, the other stays.
        let wanted = [group("a", ["p1@x"], displays: ["a"]), group("b", ["p2@x", "p3@x", "p4@x"], displays: ["b"])]
        XCTAssertEqual(SharedGroupsApply.ejabberdSteps(wanted: wanted, current: current).map(\.description), [
            "remove p2@x from 'A'", "add p2@x to 'B'", "add p4@x to 'B'", "delete group 'OLD-1234ABCD'",
        ])
        XCTAssertEqual(SharedGroupsApply.ejabberdSteps(wanted: wanted, current: wanted), [], "in step: nothing")
    }

    func testProsodyWritesAndReloadsOnlyWhenTheFileChanges() {
        let wanted = SharedGroupsApply.prosodyGroups(ProsodyGroupsFile.read(Array("[G]\na@x\n".utf8)))
        XCTAssertEqual(SharedGroupsApply.prosodySteps(wanted: wanted, text: "[G]\na@x\n", existing: Array("[G]\na@x\n".utf8), path: "/g", host: "x"), [])
        XCTAssertEqual(SharedGroupsApply.prosodySteps(wanted: wanted, text: "[G]\na@x\n", existing: nil, path: "/g", host: "x"),
                       [.createGroup(id: "G", label: "G"), .addMember(jid: "a@x", group: "G", label: "G"), .writeFile(path: "/g"), .reloadGroups(host: "x")])
        // A name changed: the same members, the file written again.
        XCTAssertEqual(SharedGroupsApply.prosodySteps(wanted: wanted, text: "[G]\na@x=Ann\n", existing: Array("[G]\na@x\n".utf8), path: "/g", host: "x"),
                       [.writeFile(path: "/g"), .reloadGroups(host: "x")])
        // The file written, its reload never seen: only the reload.
        XCTAssertEqual(SharedGroupsApply.prosodySteps(wanted: wanted, text: "[G]\na@x\n", existing: Array("[G]\na@x\n".utf8), path: "/g", host: "x",
                                                      reloadPending: true), [.reloadGroups(host: "x")])
    }

    func testProsodyPlansTheMembershipChangesOfItsFile() {
        let before = Array("[Class 5A]\na1@x=A\na2@x=B\nt@x=T\n\n[Class 5B]\nb1@x=C\nt@x=T\n\n[Old]\no@x\n".utf8)
        let text = "[Class 5A]\na1@x=A\nt@x=T\n\n[Class 5B]\na2@x=B\nb1@x=C\nt@x=T\n"
        let wanted = SharedGroupsApply.prosodyGroups(ProsodyGroupsFile.read(Array(text.utf8)))
        XCTAssertEqual(SharedGroupsApply.prosodySteps(wanted: wanted, text: text, existing: before, path: "/g", host: "x").map(\.description), [
            "remove a2@x from 'Class 5A'", "add a2@x to 'Class 5B'", "delete group 'Old'", "write /g", "reload mod_groups on x",
        ])
    }
}
