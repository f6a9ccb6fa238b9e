import XCTest
import XMPPStanzas

/// RFC 7622 beyond ASCII: the §3.5 examples, separators found by scalar, PRECIS on local and
/// resource parts, IDNA2008 domains, and error messages that show invisible characters.
final class JIDInternationalTests: XCTestCase {
    /// RFC 7622 §3.5.1, every valid example: the JID and its canonical text.
    func testRFC7622ValidExamples() throws {
        let examples: [(String, String)] = [
            ("juliet@example.com", "juliet@example.com"),
            ("juliet@example.com/foo", "juliet@example.com/foo"),
            ("juliet@example.com/foo bar", "juliet@example.com/foo bar"),
            ("juliet@example.com/foo@bar", "juliet@example.com/foo@bar"),
            ("foo\\20bar@example.com", "foo\\20bar@example.com"),
            ("fussball@example.com", "fussball@example.com"),
            ("fußball@example.com", "fußball@example.com"),
            ("π@example.com", "π@example.com"),
            ("Σ@example.com/foo", "σ@example.com/foo"),
            ("σ@example.com/foo", "σ@example.com/foo"),
            ("ς@example.com/foo", "ς@example.com/foo"),
            ("king@example.com/♚", "king@example.com/♚"),
            ("example.com", "example.com"),
            ("example.com/foobar", "example.com/foobar"),
            ("a.example.com/b@example.net", "a.example.com/b@example.net"),
        ]
        for (text, canonical) in examples {
            XCTAssertEqual(try JID(text).description, canonical, text)
        }
        XCTAssertEqual(try JID("Σ@example.com/foo"), try JID("σ@example.com/foo"), "§3.5.1 #9 and #10 are one address")
        XCTAssertNotEqual(try JID("σ@example.com"), try JID("ς@example.com"), "final sigma stays itself (RFC 5892 exception)")
        XCTAssertNotEqual(try JID("fußball@example.com"), try JID("fussball@example.com"))
        XCTAssertEqual(try JID("a.example.com/b@example.net").resource, "b@example.net")
    }

    /// RFC 7622 §3.5.2, every invalid example.
    func testRFC7622InvalidExamples() {
        XCTAssertEqual(error("\"juliet\"@example.com"), .forbiddenCharacter(part: "local part", character: "\""))
        XCTAssertEqual(error("foo bar@example.com"), .forbiddenCharacter(part: "local part", character: " "))
        XCTAssertEqual(error("juliet@example.com/"), .emptyResource)
        XCTAssertNotNil(error("@example.com/"))
        XCTAssertEqual(error("henry\u{2163}@example.com"), .forbiddenCharacter(part: "local part", character: "\u{2163}"))
        XCTAssertEqual(error("♚@example.com"), .forbiddenCharacter(part: "local part", character: "♚"))
        XCTAssertEqual(error("juliet@"), .emptyDomain)
        XCTAssertEqual(error("/foobar"), .emptyDomain)
    }

    /// A combining mark after '/' or '@' shares a grapheme cluster with it; the separator still counts.
    func testSeparatorsAreFoundByScalarNotGraphemeCluster() throws {
        let slash = try JID("b@example.com/\u{301}")
        XCTAssertFalse(slash.isBare, "'/' + U+0301 still starts a resource")
        XCTAssertEqual(slash.domain, "example.com")
        XCTAssertEqual(slash.resource, "\u{301}")

        // The first '@' ends the localpart; what follows is no domain.
        XCTAssertNotNil(error("a@\u{301}b@example.com"))
        XCTAssertNil(try? JID("a@\u{301}b@example.com").local?.contains("@"))
        // U+0600 joins the '@' after it into one cluster; it is refused, the '@' still splits.
        XCTAssertEqual(error("a\u{600}@example.com"), .forbiddenCharacter(part: "local part", character: "\u{600}"))
    }

    func testLocalpartIsUsernameCaseMapped() throws {
        XCTAssertEqual(try JID("\u{FF38}@example.com").local, "x", "fullwidth X maps to x")
        XCTAssertEqual(try JID("\u{FF2A}\u{FF55}\u{FF4C}\u{FF49}\u{FF45}\u{FF54}@example.com").local, "juliet")
        XCTAssertEqual(error("\u{216B}@localhost"), .forbiddenCharacter(part: "local part", character: "\u{216B}"),
                       "ROMAN NUMERAL TWELVE is refused, not turned into 'xii'")
        XCTAssertEqual(try JID("A\u{30A}@example.com").local, "\u{E5}", "NFC after lowercasing")
        XCTAssertEqual(error("a\u{200D}b@example.com"), .characterOutOfContext(part: "local part", character: "\u{200D}"))
        XCTAssertEqual(try JID("l\u{B7}l@example.com").local, "l\u{B7}l", "Catalan ela geminada")
        XCTAssertEqual(error("a\u{B7}b@example.com"), .characterOutOfContext(part: "local part", character: "\u{B7}"))
        XCTAssertEqual(error("\u{5D0}1@example.com")?.description, nil, "RTL then EN: the Bidi Rule allows it")
        XCTAssertEqual(error("\u{5D0}a@example.com"), .mixedDirections(part: "local part"))
    }

    func testResourcepartIsOpaqueString() throws {
        XCTAssertEqual(try JID("a@example.com/x\u{A0}y").resource, "x y", "NBSP maps to U+0020")
        XCTAssertEqual(try JID("a@example.com/x\u{3000}y").resource, "x y", "ideographic space maps to U+0020")
        XCTAssertEqual(try JID("a@example.com/Caf\u{65}\u{301}").resource, "Caf\u{E9}", "NFC, case kept")
        XCTAssertEqual(try JID("a@example.com/\u{2163}").resource, "\u{2163}", "FreeformClass allows compatibility characters")
        XCTAssertEqual(error("a@example.com/x\u{200B}"), .forbiddenCharacter(part: "resource", character: "\u{200B}"))
    }

    func testDomainIsIDNA2008WithUTS46Mapping() throws {
        let unicode = try JID("a@BÜCHER.example")
        XCTAssertEqual(unicode.domain, "bücher.example", "the canonical form holds U-labels")
        XCTAssertEqual(unicode.asciiDomain, "xn--bcher-kva.example")
        XCTAssertEqual(try JID("a@xn--bcher-kva.example"), unicode, "an A-label and its U-label are one domain")
        XCTAssertEqual(try JID("a@XN--BCHER-KVA.example").description, "a@bücher.example")
        XCTAssertEqual(try JID("faß.de").domain, "faß.de", "non-transitional: ß is kept")
        XCTAssertEqual(try JID("a@example\u{3002}com").domain, "example.com", "ideographic full stop separates labels")
        XCTAssertEqual(try JID("localhost").asciiDomain, "localhost")
        XCTAssertEqual(try JID("u@[::1]").asciiDomain, "[::1]")
        XCTAssertNotNil(error("a@xn--bcher-kvb.example"), "an A-label that does not decode to a valid U-label")
        XCTAssertEqual(error("a@xn--bshple"), .invalidDomain("xn--bshple", reason: "label 'xn--bshple': its U-label is not valid"),
                       "an A-label of DISALLOWED characters (⒂⒃⑾⑶; FuzzJID found its canonical form refused)")
        XCTAssertNotNil(error("a@exa_mple.org"), "not a letter, digit or hyphen")
        XCTAssertNotNil(error("a@ab--c.example"), "hyphens in the third and fourth positions")
        XCTAssertNotNil(error("a@-ab.example"))
        XCTAssertNotNil(error("a@\u{301}a.example"), "a label may not start with a combining mark")
        XCTAssertEqual(try JID("a@ex\u{AD}ample.com").domain, "example.com", "UTS #46 ignores a soft hyphen")
        XCTAssertEqual(error("a@\u{FEFF}.example"), .invalidDomain("\u{FEFF}.example", reason: "empty label"),
                       "a label of ignored characters is empty (FuzzJID found its canonical form refused)")
        XCTAssertNotNil(error("a@\u{2488}example"), "DIGIT ONE FULL STOP would split a label")
    }

    /// RFC 7622: each part at most 1023 octets, measured in its canonical (UTF-8) form; a domain
    /// label at most 63 octets in its A-label form.
    func testLengthsAreMeasuredOnTheCanonicalForm() throws {
        XCTAssertNoThrow(try JID(String(repeating: "\u{FF4C}", count: 1023) + "@example.com"),
                         "3069 bytes of fullwidth letters map to 1023 bytes")
        XCTAssertEqual(error(String(repeating: "\u{E9}", count: 512) + "@example.com"), .tooLong(part: "local part"))
        let label = String(repeating: "x", count: 63)
        let domain1023 = Array(repeating: label, count: 16).joined(separator: ".")
        XCTAssertEqual(try JID("a@" + domain1023).domain.utf8.count, 1023, "longer than DNS names, as RFC 7622 allows")
        XCTAssertEqual(error("a@" + domain1023 + ".x"), .tooLong(part: "domain"))
        XCTAssertNoThrow(try JID("a@" + String(repeating: "ü", count: 57) + ".example"), "A-label of 63 octets")
        XCTAssertNotNil(error("a@" + String(repeating: "ü", count: 58) + ".example"), "A-label of 64 octets")
    }

    func testErrorsShowInvisibleCharactersAsCodePoints() {
        XCTAssertEqual(error("a\u{200B}b@example.com")?.description, "local part may not contain U+200B")
        XCTAssertEqual(error("a\u{2163}@example.com")?.description, "local part may not contain 'Ⅳ' (U+2163)")
        XCTAssertEqual(error("a\u{200D}b@example.com")?.description, "local part may not contain U+200D there")
        let domain = error("a@exa\u{200B}mple.com")?.description ?? ""
        XCTAssertFalse(domain.unicodeScalars.contains("\u{200B}"), domain)
    }

    private func error(_ text: String) -> JIDError? {
        do { _ = try JID(text); return nil } catch { return error }
    }
}
