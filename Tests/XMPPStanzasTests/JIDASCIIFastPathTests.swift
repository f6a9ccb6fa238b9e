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
}
