import XCTest
import XMPPStanzas
import XMPPServices

/// Rosters are listed in byte order of the contacts' JIDs, the order the cache stores them in.
final class RosterOrderTests: XCTestCase {
    func testItemsAreSortedByTheBytesOfTheirJIDs() throws {
        // "a-b@x" before "a@x" ('-' is 0x2D, '@' 0x40), which comparing localparts would reverse;
        // a shorter domain before a longer one it starts; a non-ASCII localpart after ASCII ones.
        let expected = ["a-b@example.org", "a@example.org", "a@example.org.uk", "b@example.org", "example.net",
                        "z@a.example", "é@example.org"]
        let items = try expected.map { RosterItem(jid: try JID($0), subscription: .both) }
        for shuffled in [items.reversed(), items.shuffled(), items.shuffled()] {
            XCTAssertEqual(RosterSession.sortedByJID(Array(shuffled)).map(\.jid.description), expected)
        }
        XCTAssertEqual(RosterSession.sortedByJID([]), [])
    }
}
