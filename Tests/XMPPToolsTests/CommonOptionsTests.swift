import Arguments
import XCTest
import XMPPStanzas
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

    /// --resource is a JID's resourcepart: what RFC 7622 (PRECIS OpaqueString) refuses is refused
    /// before connecting, exit status 9 naming the character, as a bad JID is (issue 41: a tab
    /// or an empty value was sent to the server, which bound a random resource instead).
    func testResourceIsCheckedAsAResourcepart() throws {
        for (bad, named) in [("a\tb", "U+0009"), ("bot\u{7}", "U+0007"), ("", "empty"), ("x\u{200B}y", "U+200B"),
                             (String(repeating: "r", count: 1024), "longer than 1023 bytes")] {
            XCTAssertThrowsError(try common(["--resource", bad]), JID.printable(bad)) { error in
                guard let f = error as? ToolFailure else { return XCTFail("\(error)") }
                XCTAssertEqual(f.code, .badInput, f.message)
                XCTAssertTrue(f.message.hasPrefix("invalid --resource"), f.message)
                XCTAssertTrue(f.message.contains(named), f.message)
            }
        }
        XCTAssertEqual(try common(["--resource", "bot 1 (été)"]).resource, "bot 1 (été)")
        XCTAssertEqual(try common(["--resource", "bot\u{3000}1"]).resource, "bot 1", "PRECIS maps other spaces to U+0020")
        XCTAssertNil(try common([]).resource)
    }

    private func common(_ words: [String]) throws -> CommonOptions {
        guard case .run(let command) = try ArgumentParser.parse((["list"] + words)[...], spec: RosterTool.spec) else {
            throw XCTSkip("not a command")
        }
        return try CommonOptions(command)
    }

    private func parse(_ s: String) throws -> (host: String, port: Int?) { try CommonOptions.parseServer(s) }
}
