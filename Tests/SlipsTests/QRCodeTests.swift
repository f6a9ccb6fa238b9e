import XCTest
@testable import Slips

final class QRCodeTests: XCTestCase {
    func testPlaceholder() {}
}
