import XCTest
@testable import XMPPStanzas

/// The plain-ASCII shortcut in JID validation gives what the full PRECIS/IDNA path gives, and
/// is not taken where that path changes or refuses the input.
final class JIDASCIIFastPathTests: XCTestCase {
    func testTheShortcutAgreesWithTheFullProfile() throws {
        for local in ["c0001", "juliet", "a.b_c-d+e", "x"] {
            XCTAssertTrue(JID.isPlainASCIILocal(local), local)
            XCTAssertEqual(try PRECISProfile.usernameCaseMapped.enforce(local), local)
        }
        for resource in ["xmpp-tools.1a2b3c4d", "Balcony Phone", " lead", "a/b@c:d&'\"<>", "~!#$%^*()"] {
            XCTAssertTrue(JID.isPlainASCIIResource(resource), resource)
            XCTAssertEqual(try PRECISProfile.opaqueString.enforce(resource), resource)
        }
        for domain in ["localhost", "example.com", "a-b.c0.org", "127.0.0.1", "ab-d.example", "a", "a-b-c", "abc-d--e.x"] {
            XCTAssertTrue(JID.isPlainASCIIDomain(domain), domain)
            XCTAssertEqual(try IDNADomain.canonical(domain).unicode, domain)
        }
    }

    func testInputTheFullPathChangesOrRefusesIsNotShortcut() throws {
        for local in ["Juliet", "jül", "a b", "a\"b", "a&b", "a'b", "a/b", "a:b", "a<b", "a>b", "a@b", String(repeating: "a", count: 1024)] {
            XCTAssertFalse(JID.isPlainASCIILocal(local), local)
        }
        for domain in ["Example.com", "xn--bcher-kva.example", "ab--cd.example", "-a.example", "a-.example", "a..b", "",
                       "b\u{FC}cher.example", String(repeating: "a", count: 64) + ".example",
                       "example.com.", ".example", "a-", "-", "abc-", "ab--", "x.ab--cd"] {
            XCTAssertFalse(JID.isPlainASCIIDomain(domain), domain)
        }
        for resource in ["tab\there", "del\u{7F}", "caf\u{E9}", "\u{2000}wide space", String(repeating: "r", count: 1024)] {
            XCTAssertFalse(JID.isPlainASCIIResource(resource), resource)
        }
        XCTAssertEqual(try JID("Juliet@Example.COM").description, "juliet@example.com")
        XCTAssertEqual(try JID("juliet@xn--bcher-kva.example").domain, "b\u{FC}cher.example")
        XCTAssertThrowsError(try JID("juliet@-a.example"))
        XCTAssertEqual(try JID("juliet@example.com.").domain, "example.com")
    }

    /// The one-pass parse of plain bare JIDs gives what the general parse gives, and leaves
    /// everything else (resources, empty parts, other characters) to it.
    func testThePlainBareParseAgreesWithTheGeneralParse() throws {
        var samples = ["c0001@localhost", "localhost", "a@b", "@localhost", "c0001@", "", "a@b@c", "a@b/r", "a/b@c",
                       "Juliet@example.com", "juliet@Example.com", "juliet@example.com.", "juliet@xn--bcher-kva.example",
                       "j\u{FC}l@example.com", "a+b.c_d-e@x-y.z0", "a@-b", "a@b-", "a@ab--cd", "/r", "a@", "@",
                       String(repeating: "a", count: 1024) + "@x", "a@" + String(repeating: "b", count: 64)]
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Character] = ["a", "z", "0", "9", ".", "-", "_", "+", "@", "/", "A", "\u{FC}", " ", "\"", ":"]
        for _ in 0..<20_000 {
            samples.append(String((0..<Int.random(in: 0...10, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        var shortcut = 0
        for text in samples {
            let general = Result<JID, JIDError>(catching: { () throws(JIDError) in try JID(parsing: text) })
            if let fast = JID.plainBare(text) {
                shortcut += 1
                XCTAssertEqual(try general.get(), fast, text)
                XCTAssertEqual(try general.get().description, fast.description, text)
            }
            switch (Result<JID, JIDError>(catching: { () throws(JIDError) in try JID(text) }), general) {
            case (.success(let a), .success(let b)): XCTAssertEqual(a, b, text)
            case (.failure(let a), .failure(let b)): XCTAssertEqual(a, b, text)
            default: XCTFail("JID(\(text.debugDescription)) and the general parse disagree")
            }
        }
        XCTAssertGreaterThan(shortcut, 100)
        XCTAssertNotNil(JID.plainBare("c0001@localhost"))
        for text in ["a@b/r", "@localhost", "c0001@", "", "Juliet@example.com", "a@b@c"] { XCTAssertNil(JID.plainBare(text), text) }
    }
}
