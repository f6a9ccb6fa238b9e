import XCTest
@testable import XMPPStorage

/// The byte split of a cached item's joined groups gives what the UTF8View's split gives.
final class RosterCacheGroupsTests: XCTestCase {
    func testGroupSplitAgreesWithTheGenericSplit() {
        var samples = ["", "\u{1F}", "\u{1F}\u{1F}", "Work", "Work\u{1F}Home", "\u{1F}a\u{1F}\u{1F}b\u{1F}", "Ünï\u{1F}☃ e\u{301}"]
        let alphabet: [Character] = ["a", "\u{1F}", "é", "☃", " "]
        for _ in 0..<2_000 { samples.append(String((0..<Int.random(in: 0...8)).map { _ in alphabet.randomElement()! })) }
        for joined in samples {
            XCTAssertEqual(RosterCache.groups(joined: joined),
                           joined.utf8.split(separator: 0x1F).map { String(decoding: $0, as: UTF8.self) }, joined.debugDescription)
        }
    }
}
