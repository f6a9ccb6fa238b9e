import XCTest
@testable import XMPPConnection

/// Username escaping (RFC 5802 §5.1) and SASLprep (RFC 4013 §3's examples, NFKC included).
final class SASLprepTests: XCTestCase {
    private func firstBare(_ username: String) throws -> String {
        var scram = try SCRAMClient(
            mechanism: SCRAMMechanism(hash: .sha1, plus: false), username: username, credential: .password("p"),
            channelBinding: .unsupported, clientNonce: "N")
        return String(String(decoding: scram.clientFirstMessage(), as: UTF8.self).dropFirst(3))
    }

    func testUsernameEscaping() throws {
        XCTAssertEqual(try firstBare("a,b=c"), "n=a=2Cb=3Dc,r=N")
        XCTAssertEqual(try firstBare("=,"), "n==3D=2C,r=N")
        XCTAssertEqual(try firstBare("jöns"), "n=jöns,r=N")
    }

    func testMappingAndProhibition() throws {
        XCTAssertEqual(try SASLprep.prepare("I\u{00AD}X"), "IX")  // RFC 4013 §3 #1: soft hyphen mapped to nothing
        XCTAssertEqual(try SASLprep.prepare("user"), "user")  // #2
        XCTAssertEqual(try SASLprep.prepare("USER"), "USER")  // #3: case preserved
        XCTAssertEqual(try SASLprep.prepare("a\u{00A0}b\u{3000}c"), "a b c")  // non-ASCII spaces
        XCTAssertEqual(try SASLprep.prepare("a\u{200B}b\u{FEFF}c"), "abc")
        XCTAssertEqual(try SASLprep.prepare("pass word!~"), "pass word!~")
        XCTAssertThrowsError(try SASLprep.prepare("\u{0007}"))  // #6: prohibited control
        XCTAssertThrowsError(try SASLprep.prepare("a\tb"))
        XCTAssertThrowsError(try SASLprep.prepare("a\u{E000}b"))  // private use
        XCTAssertThrowsError(try SASLprep.prepare("a\u{FFFF}"))  // non-character
        XCTAssertThrowsError(try SASLprep.prepare("\u{202E}evil"))  // bidi override
        XCTAssertThrowsError(try SASLprep.prepare("\u{E0041}"))  // tag
        XCTAssertThrowsError(try SASLprep.prepare("a\u{1FFFE}"))
        XCTAssertEqual(try SASLprep.prepare("\u{1F600}"), "\u{1F600}")
    }

    /// RFC 4013 §2.2: NFKC after mapping, and the prohibition checked on its output.
    func testNFKCNormalization() throws {
        XCTAssertEqual(try SASLprep.prepare("\u{00AA}"), "a")  // RFC 4013 §3 #4
        XCTAssertEqual(try SASLprep.prepare("\u{2168}"), "IX")  // #5: ROMAN NUMERAL NINE
        XCTAssertEqual(try SASLprep.prepare("pass\u{00B2}"), "pass2")
        XCTAssertEqual(try SASLprep.prepare("\u{FB01}le \u{FF21}\u{FF22}"), "file AB")  // ligature, full-width letters
        XCTAssertEqual(try SASLprep.prepare("e\u{0301}"), "\u{00E9}")  // composed, as NFC would
        XCTAssertEqual(try SASLprep.prepare("\u{FDFA}").unicodeScalars.count, 18)  // the longest expansion there is
        XCTAssertEqual(try SASLprep.prepare(String(repeating: "\u{FDFA}", count: 100)).unicodeScalars.count, 1800)
        XCTAssertEqual(try SASLprep.prepare("\u{1F600}\u{00E9}"), "\u{1F600}\u{00E9}")  // already NFKC: unchanged
    }

    func testPrepErrorsAreTypedAndHideThePassword() {
        assertSASLError(.invalidUsername("it contains the prohibited character U+0007")) { () throws(SASLError) in
            try SCRAMClient(
                mechanism: SCRAMMechanism(hash: .sha1, plus: false), username: "a\u{7}", credential: .password("p"),
                channelBinding: .unsupported)
        }
        assertSASLError(.invalidUsername("it is empty")) { () throws(SASLError) in
            try SCRAMClient(
                mechanism: SCRAMMechanism(hash: .sha1, plus: false), username: "\u{00AD}", credential: .password("p"),
                channelBinding: .unsupported)
        }
        assertSASLError(.invalidPassword("it contains the prohibited character U+0000")) { () throws(SASLError) in
            try SCRAMClient(
                mechanism: SCRAMMechanism(hash: .sha1, plus: false), username: "u", credential: .password("se\u{0}cret"),
                channelBinding: .unsupported)
        }
        assertSASLError(.invalidNonce) { () throws(SASLError) in
            try SCRAMClient(
                mechanism: SCRAMMechanism(hash: .sha1, plus: false), username: "u", credential: .password("p"),
                channelBinding: .unsupported, clientNonce: "a,b")
        }
    }

    /// A mapped password derives the same keys as its mapped form.
    func testPasswordIsPreparedBeforePBKDF2() throws {
        let mapped = try SCRAMKeys.derive(hash: .sha256, password: "pen\u{00AD}cil\u{00A0}x", salt: [1], iterations: 4096)
        let plain = try SCRAMKeys.derive(hash: .sha256, password: "pencil x", salt: [1], iterations: 4096)
        XCTAssertEqual(mapped, plain)
        let numeral = try SCRAMKeys.derive(hash: .sha1, password: "\u{2168}-pass", salt: [1], iterations: 4096)
        XCTAssertEqual(numeral, try SCRAMKeys.derive(hash: .sha1, password: "IX-pass", salt: [1], iterations: 4096))
    }
}
