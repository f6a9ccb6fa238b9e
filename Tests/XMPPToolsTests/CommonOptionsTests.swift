import XCTest
@testable import XMPPTools

/// `--server`, `--pin` and the shared option group.
final class CommonOptionsTests: XCTestCase {
    func testServerForms() throws {
        XCTAssertEqual(try parse("xmpp.example.org").host, "xmpp.example.org")
        XCTAssertNil(try parse("xmpp.example.org").port)
        XCTAssertEqual(try parse("127.0.0.1:5223").port, 5223)
        XCTAssertEqual(try parse("[::1]:5222").host, "::1")
        XCTAssertEqual(try parse("[::1]").host, "::1")
        XCTAssertEqual(try parse("::1").host, "::1", "a bare IPv6 address has no port")
    }

    func testBadServersNameTheInput() {
        for bad in ["host:", "host:x", "host:70000", ":5222", "[::1", "[::1]x"] {
            XCTAssertThrowsError(try parse(bad)) { error in
                guard let f = error as? ToolFailure else { return XCTFail("\(error)") }
                XCTAssertEqual(f.code, .usage)
                XCTAssertTrue(f.message.contains("'\(bad)'"), f.message)
            }
        }
    }

    func testPinSyntax() {
        XCTAssertNoThrow(try CommonOptions.validatePin("sha256/" + String(repeating: "A", count: 43) + "="))
        XCTAssertThrowsError(try CommonOptions.validatePin("sha1/AAAA"))
        XCTAssertThrowsError(try CommonOptions.validatePin("sha256/AAAA"), "a pin must be 32 bytes")
    }

    private func parse(_ s: String) throws -> (host: String, port: Int?) { try CommonOptions.parseServer(s) }
}
