import Foundation
import XCTest
@testable import XMPPTools

/// `--report` never overwrites the input, however the two paths are spelt (issue 34 item 5:
/// `sync in.csv --report ./in.csv` replaced the input, the check compared strings).
final class BatchInputOutputTests: XCTestCase {
    func testAnOutputNamingTheInputIsRefusedByDeviceAndInode() throws {
        let directory = NSTemporaryDirectory() + "xt-distinct-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = directory + "/in.csv"
        try Data("username\na\n".utf8).write(to: URL(fileURLWithPath: input))
        XCTAssertEqual(link(input, directory + "/hard.csv"), 0)
        XCTAssertEqual(symlink(input, directory + "/soft.csv"), 0)
        let environment = try ToolEnvironment(program: "xmpp-register", variables: ["HOME": directory])
        let source = BatchSheetInput(path: input, environment: environment)
        for output in [input, directory + "/./in.csv", directory + "//in.csv", directory + "/hard.csv", directory + "/soft.csv"] {
            XCTAssertThrowsError(try source.requireDistinct(output: output, option: "--report"), output) { error in
                XCTAssertEqual((error as? ToolFailure)?.code, .usage)
                XCTAssertTrue((error as? ToolFailure)?.message.contains("is the input") ?? false, "\(error)")
            }
        }
        XCTAssertNoThrow(try source.requireDistinct(output: directory + "/report.csv", option: "--report"), "a new file")
        XCTAssertNoThrow(try source.requireDistinct(output: nil, option: "--report"))
    }
}
