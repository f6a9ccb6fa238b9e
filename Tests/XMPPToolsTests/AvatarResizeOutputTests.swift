import Arguments
import Foundation
import XCTest
@testable import XMPPTools

/// `xmpp-avatar resize IMAGE -o OUT` never replaces the image it reads, however OUT is spelt
/// (`./in.png`, a hard link, a symlink): refused before anything is read, as batch --report is.
final class AvatarResizeOutputTests: XCTestCase {
    private func resize(_ args: [String]) throws -> AvatarTool.Resize {
        guard case .run(let command) = try ArgumentParser.parse((["resize"] + args)[...], spec: AvatarTool.spec, environment: [:]) else {
            throw XCTSkip("not a run")
        }
        let environment = try ToolEnvironment(program: "xmpp-avatar", variables: ["HOME": NSTemporaryDirectory()])
        return try AvatarTool.Resize(Invocation(command: command, environment: environment, common: try CommonOptions(command)))
    }

    func testAnOutputNamingTheImageIsRefused() throws {
        let directory = NSTemporaryDirectory() + "xt-resize-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = directory + "/in.png"
        let original = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
        try original.write(to: URL(fileURLWithPath: input))
        XCTAssertEqual(link(input, directory + "/hard.png"), 0)
        XCTAssertEqual(symlink(input, directory + "/soft.png"), 0)
        for output in [input, directory + "/./in.png", directory + "/hard.png", directory + "/soft.png"] {
            XCTAssertThrowsError(try resize([input, "-o", output]), output) { error in
                XCTAssertEqual((error as? ToolFailure)?.code, .usage)
                XCTAssertEqual((error as? ToolFailure)?.message,
                               "-o \(output) is the input \(input): it would be overwritten; choose another file")
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: input)), original, "the image is untouched")
        XCTAssertNoThrow(try resize([input, "-o", directory + "/out.png"]), "a new file is fine")
        XCTAssertEqual(ExitCode.usage.rawValue, 2)
    }
}
