import Foundation
import XCTest

extension XCTestCase {
    /// An empty directory of its own for this test, removed when the test ends.
    func scratchDirectory(_ tag: String) throws -> String {
        let path = NSTemporaryDirectory() + "xt-\(tag)-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }
}
