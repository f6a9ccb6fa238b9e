import XCTest

/// Contacts typed with characters PRECIS maps or refuses (RFC 7622 with RFC 8265): what is
/// refused never reaches the server, and what is mapped is added, shown and removed as one
/// canonical address.
final class RosterJIDEndToEndTests: XCTestCase {
    func testCompatibilityCharactersAreRefusedNotRewritten() throws {
        let w = try RosterWorld()
        let alice = try w.account("jd")
        let twelve = try w.roster(alice, ["add", "\u{216B}"])
        XCTAssertEqual(twelve.status, 9, twelve.stderr)
        XCTAssertTrue(twelve.stderr.contains("U+216B"), twelve.stderr)
        let king = try w.roster(alice, ["add", "\u{265A}@localhost"])
        XCTAssertEqual(king.status, 9, king.stderr)
        let hidden = try w.roster(alice, ["add", "a\u{200B}b"])
        XCTAssertEqual(hidden.status, 9, hidden.stderr)
        XCTAssertTrue(hidden.stderr.contains("U+200B") && !hidden.stderr.unicodeScalars.contains("\u{200B}"), hidden.stderr)
        XCTAssertEqual(try w.contacts(alice).count, 0, "nothing was added, not even xii@localhost")
    }

    func testFullwidthLettersAreOneAddressWithTheirPlainForm() throws {
        let w = try RosterWorld()
        let alice = try w.account("jw"), bob = try w.account("jwb")
        let name = String(bob.prefix { $0 != "@" })
        let fullwidth = String(String.UnicodeScalarView(name.unicodeScalars.map { c in
            ("a"..."z").contains(c) ? Unicode.Scalar(c.value - 0x61 + 0xFF41) ?? c : c
        }))
        let added = try w.roster(alice, ["add", fullwidth.uppercased()])
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertNotNil(try w.contacts(alice)[bob], "the plain form is what the roster holds")
        let removed = try w.roster(alice, ["remove", fullwidth])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(try w.contacts(alice).count, 0)
    }
}
