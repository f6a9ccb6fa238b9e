@testable import TextFormats
import Foundation
import XCTest

/// Stable, correctly escaped JSON output.
final class JSONValueTests: XCTestCase {
    func testKeysKeepTheirOrderAndEscape() {
        let v = JSONValue.object([("z", .int(1)), ("a", .string("q\"\\\n\u{1}é")), ("n", .null), ("l", .array([.bool(true)]))])
        XCTAssertEqual(v.compact, #"{"z":1,"a":"q\"\\\n\u0001é","n":null,"l":[true]}"#)
    }

    /// Control characters from the network never reach the output raw, and parse back to the same string.
    func testControlAndBidiCharactersAreEscaped() throws {
        let hostile = "a\u{1B}[31m\u{7F}\u{9B}\u{202E}\u{2066}\u{200F}\u{061C}\u{2028}b"
        let text = JSONValue.string(hostile).compact
        XCTAssertEqual(text, #""a\u001b[31m\u007f\u009b\u202e\u2066\u200f\u061c\u2028b""#)
        XCTAssertEqual(try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) as? String, hostile)
    }

    func testPrettyIsValidJSON() throws {
        let v = JSONValue.object([("jid", .string("a@b")), ("items", .array([])), ("o", .object([]))])
        let parsed = try JSONSerialization.jsonObject(with: Data(v.pretty.utf8)) as? [String: Any]
        XCTAssertEqual(parsed?["jid"] as? String, "a@b")
        XCTAssertEqual(v.pretty, "{\n  \"jid\": \"a@b\",\n  \"items\": [],\n  \"o\": {}\n}")
    }

    /// The bytes `list --json` writes are exactly the pretty text's UTF-8.
    func testPrettyUTF8IsThePrettyText() {
        let v = JSONValue.array([.object([("jid", .string("é@b")), ("groups", .array([.string("q\"\u{1}")])),
                                          ("n", .null), ("i", .int(-3))]), .object([])])
        XCTAssertEqual(v.prettyUTF8, Array(v.pretty.utf8))
        XCTAssertEqual(v.pretty, "[\n  {\n    \"jid\": \"é@b\",\n    \"groups\": [\n      \"q\\\"\\u0001\"\n    ],\n    \"n\": null,\n    \"i\": -3\n  },\n  {}\n]")
    }
}
