import Foundation
import XCTest
import XMPPServices
import XMPPStanzas
@testable import XMPPBatch

/// The refresh's read-back of what clients change beside the card: the PEP nickname (XEP-0172)
/// and the PEP avatar (XEP-0084). A nickname changed in either store is drift and the file wins;
/// a photo changed or removed on the server is published again.
final class SyncProfileReadBackTests: XCTestCase {
    private func rows() throws -> [BatchRow] { try syncSheet("username,nickname\na1,Ann\na2,Abe\n").validRows }

    func testTheNicknameComparedIsTheStoreThatDiffersFromTheFile() {
        XCTAssertEqual(SyncRefresh.LiveProfile(nickname: "Ann", pepNickname: "xXx", hasPEPNickname: true).nickname(against: "Ann"), "xXx")
        XCTAssertEqual(SyncRefresh.LiveProfile(nickname: "Zed", pepNickname: "Ann", hasPEPNickname: true).nickname(against: "Ann"), "Zed")
        XCTAssertEqual(SyncRefresh.LiveProfile(nickname: "Ann", pepNickname: "Ann", hasPEPNickname: true).nickname(against: "Ann"), "Ann")
        XCTAssertEqual(SyncRefresh.LiveProfile(nickname: "Ann").nickname(against: "Ann"), "Ann", "a node that was not read is not compared")
        XCTAssertNil(SyncRefresh.LiveProfile(nickname: "Ann", pepNickname: nil, hasPEPNickname: true).nickname(against: "Ann"),
                     "a nickname node emptied by its user")
    }

    func testANicknameChangedOnlyInThePEPNodeIsDriftAndTheFileWins() throws {
        let r = try rows()
        var state: [String: SyncState.Account] = [:]
        var refresh = SyncRefresh(existing: ["x.org": Set(r.map(\.jid.bare))])
        for row in r {
            state[row.jid.description] = SyncState.Account(nickname: row.profile.nickname)
            refresh.readings[row.jid.description] = .roster([])
            refresh.profiles[row.jid.description] = SyncRefresh.LiveProfile(nickname: row.profile.nickname, pepNickname: row.profile.nickname,
                                                                             hasPEPNickname: true)
        }
        XCTAssertTrue(SyncPlan(rows: r, state: state, facts: SyncFacts(refresh: refresh), prune: .disable, columns: ["nickname"]).isEmpty)
        refresh.profiles["a1@x.org"]?.pepNickname = "xXx"
        let plan = SyncPlan(rows: r, state: state, facts: SyncFacts(refresh: refresh), prune: .disable, columns: ["nickname"])
        XCTAssertEqual(plan.drift, [SyncPlan.Drift(jid: try JID("a1@x.org"), what: "nickname changed on the server: 'xXx'", action: "'Ann' from the file")])
        XCTAssertEqual(plan.profiles.map(\.jid.description), ["a1@x.org"])
        XCTAssertEqual(plan.profiles.first?.fields, [SyncPlan.FieldChange(field: "nickname", from: "xXx", to: "Ann")])
    }

    func testAPhotoReplacedOnTheServerIsPublishedAgain() throws {
        let directory = try scratchDirectory("avatar")
        var fixture = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { fixture.deleteLastPathComponent() }
        try FileManager.default.copyItem(atPath: fixture.appendingPathComponent("PNGImageTests/Data/colour/adobe-rgb.png").path,
                                         toPath: directory + "/a.png")
        let r = try syncSheet("username,avatar\na1,a.png\na2,a.png\n", baseDirectory: directory).validRows
        XCTAssertEqual(r.count, 2)
        let key = try XCTUnwrap(r.first?.profile.avatar?.key)
        let facts = { (refresh: SyncRefresh) in SyncFacts(avatarDigests: [key: "digest"], refresh: refresh) }
        var state: [String: SyncState.Account] = [:]
        var refresh = SyncRefresh(existing: ["x.org": Set(r.map(\.jid.bare))])
        let published = try AvatarService.hash(XCTUnwrap(r.first?.profile.avatar).resized())
        for row in r {
            state[row.jid.description] = SyncState.Account(avatar: "digest")
            refresh.readings[row.jid.description] = .roster([])
            refresh.avatarIDs[row.jid.description] = published
        }
        refresh.compareAvatars(r)
        XCTAssertEqual(refresh.replacedAvatars, [:], "the image sync published, as the batch resizes it")
        XCTAssertTrue(SyncPlan(rows: r, state: state, facts: facts(refresh), prune: .disable, columns: ["avatar"]).isEmpty)
        refresh.avatarIDs["a1@x.org"] = "0123456789abcdef0123456789abcdef01234567"
        refresh.avatarIDs["a2@x.org"] = ""
        refresh.compareAvatars(r)
        let plan = SyncPlan(rows: r, state: state, facts: facts(refresh), prune: .disable, columns: ["avatar"])
        XCTAssertEqual(plan.drift.map(\.what), ["photo changed on the server", "photo removed on the server"])
        XCTAssertEqual(plan.profiles.map(\.avatar), [true, true])
    }
}
