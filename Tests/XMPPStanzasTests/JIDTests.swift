import XCTest
import XMPPStanzas

/// RFC 7622 addresses: parsing, case folding, limits and refusals.
final class JIDTests: XCTestCase {
    func testFullJIDParts() throws {
        let jid = try JID("Juliet@Example.COM/Balcony Phone")
        XCTAssertEqual(jid.local, "juliet")
        XCTAssertEqual(jid.domain, "example.com")
        XCTAssertEqual(jid.resource, "Balcony Phone", "resources keep their case")
        XCTAssertEqual(jid.description, "juliet@example.com/Balcony Phone")
        XCTAssertEqual(jid.bare.description, "juliet@example.com")
        XCTAssertFalse(jid.isBare)
    }

    func testResourceMayContainAtAndSlash() throws {
        let jid = try JID("a@b.c/x@y/z")
        XCTAssertEqual(jid.resource, "x@y/z")
        XCTAssertEqual(jid.local, "a")
    }

    func testDomainOnlyAndTrailingDot() throws {
        let jid = try JID("Example.org.")
        XCTAssertNil(jid.local)
        XCTAssertEqual(jid.domain, "example.org")
    }

    func testIPv6LiteralDomain() throws {
        XCTAssertEqual(try JID("u@[::1]").domain, "[::1]")
        XCTAssertThrowsError(try JID("u@[zz]"))
    }

    func testUnicodeLocalIsCaseFolded() throws {
        XCTAssertEqual(try JID("ÄLICE@example.org").local, "älice")
    }

    func testEmptyParts() {
        XCTAssertEqual(error(""), .emptyDomain)
        XCTAssertEqual(error("@example.org"), .emptyLocal)
        XCTAssertEqual(error("a@example.org/"), .emptyResource)
        XCTAssertEqual(error("a@"), .emptyDomain)
    }

    func testForbiddenLocalCharacters() {
        for c in ["\"", "&", "'", ":", "<", ">", " "] {
            guard case .forbiddenCharacter(part: "local part", _)? = error("a\(c)b@example.org") else {
                return XCTFail("'\(c)' must be refused in a local part")
            }
        }
    }

    func testControlCharactersRefusedEverywhere() {
        XCTAssertNotNil(error("a\u{7}@example.org"))
        XCTAssertNotNil(error("a@exa\u{0}mple.org"))
        XCTAssertNotNil(error("a@example.org/r\u{1b}"))
    }

    func testInvalidDomainLabels() {
        XCTAssertEqual(error("a@exa..mple"), .invalidDomain("exa..mple", reason: "empty label"))
        guard case .invalidDomain(_, let reason)? = error("a@" + String(repeating: "x", count: 64) + ".org") else {
            return XCTFail("a 64-letter label must be refused")
        }
        XCTAssertTrue(reason.contains("longer than 63"), reason)
        XCTAssertEqual(error("a@exa!mple.org"), .forbiddenCharacter(part: "domain", character: "!"))
    }

    func testLengthLimits() throws {
        let local = String(repeating: "l", count: 1023)
        XCTAssertNoThrow(try JID("\(local)@example.org"))
        XCTAssertEqual(error(local + "l@example.org"), .tooLong(part: "local part"))
        let resource = String(repeating: "r", count: 1024)
        XCTAssertEqual(error("a@example.org/" + resource), .tooLong(part: "resource"))
    }

    func testErrorsNameTheProblem() {
        XCTAssertEqual(error("a b@example.org")?.description, "local part may not contain ' '")
        XCTAssertEqual(error("a\u{7}@x.org")?.description, "local part may not contain U+0007")
    }

    func testEqualityAfterFoldingAndCodable() throws {
        XCTAssertEqual(try JID("Bob@EXAMPLE.org"), try JID("bob@example.org"))
        let data = try JSONEncoder().encode([try JID("bob@example.org/r")])
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "[\"bob@example.org\\/r\"]")
        XCTAssertEqual(try JSONDecoder().decode([JID].self, from: data).first?.resource, "r")
    }

    private func error(_ text: String) -> JIDError? {
        do { _ = try JID(text); return nil } catch { return error }
    }
}
