import Foundation
import XCTest

extension XCTestCase {
    /// A path of its own for this test under the temporary directory (`created`: an empty
    /// directory there; else nothing yet, for the code under test to make), removed when the test ends.
    func scratchDirectory(_ tag: String, created: Bool = true) throws -> String {
        let path = NSTemporaryDirectory() + "xt-\(tag)-" + UUID().uuidString
        if created { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }
}
