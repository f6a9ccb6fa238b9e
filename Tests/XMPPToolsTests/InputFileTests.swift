import Foundation
import XCTest
@testable import XMPPTools

/// The one reader of whole inputs named on the command line: the bytes within the limit, and
/// bad input naming the file for a missing or oversized one.
final class InputFileTests: XCTestCase {
    func testAFileIsReadWithinItsLimitAndNamedWhenItIsNot() throws {
        let path = NSTemporaryDirectory() + "xt-input-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try InputFile.read(path, limit: 10, what: "the roster file"), Array("0123456789".utf8))
        XCTAssertThrowsError(try InputFile.read(path, limit: 9, what: "the roster file")) { error in
            XCTAssertEqual((error as? ToolFailure)?.code, .badInput)
            XCTAssertEqual((error as? ToolFailure)?.message, "\(path): the roster file is larger than 9 bytes")
        }
        XCTAssertThrowsError(try InputFile.read(path + ".missing", limit: 9, what: "the roster file")) { error in
            XCTAssertEqual((error as? ToolFailure)?.message, "\(path).missing: no such file")
        }
    }
}
