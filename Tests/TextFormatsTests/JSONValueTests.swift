@testable import TextFormats
import Foundation
import XCTest

/// Stable, correctly escaped JSON output.
final class JSONValueTests: XCTestCase {
    func testKeysKeepTheirOrderAndEscape() {
        let v = JSONValue.object([("z", .int(1)), ("a", .string("q\"\\\n\u{1}é")), ("n", .null), ("l", .array([.bool(true)]))])
        XCTAssertEqual(v.compact, #"{"z":1,"a":"q\"\\\n\u0001é","n":null,"l":[true]}"#)
    }

    func testPrettyIsValidJSON() throws {
        let v = JSONValue.object([("jid", .string("a@b")), ("items", .array([])), ("o", .object([]))])
        let parsed = try JSONSerialization.jsonObject(with: Data(v.pretty.utf8)) as? [String: Any]
        XCTAssertEqual(parsed?["jid"] as? String, "a@b")
        XCTAssertEqual(v.pretty, "{\n  \"jid\": \"a@b\",\n  \"items\": [],\n  \"o\": {}\n}")
    }
}
