import Foundation
import ShellTestSupport
import XCTest

/// `handout -o FILE` never writes the PDF over the report it reads, however the two paths are
/// spelt (issue 34 item 5's class: the check compared strings, so `-o ./report.csv` wrote the
/// PDF there, then the marked report replaced it, and the run said the slips were in it).
final class HandoutOutputTests: XCTestCase {
    func testTheSlipsNeverGoOverTheReportHoweverItIsSpelt() throws {
        let binaries = try DocsSupport.binaries()
        let directory = NSTemporaryDirectory() + "xt-handout-out-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let report = directory + "/report.csv"
        let text = "line,jid,status,error,profile,password,note\r\n2,a@example.org,created,,,pw-a,\r\n"
        XCTAssertTrue(FileManager.default.createFile(atPath: report, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
        XCTAssertEqual(link(report, directory + "/hard.csv"), 0)
        XCTAssertEqual(symlink(report, directory + "/soft.csv"), 0)
        let environment = ["HOME": directory, "XDG_CONFIG_HOME": directory + "/config", "XDG_STATE_HOME": directory + "/state"]
        for output in ["./report.csv", directory + "//report.csv", "hard.csv", "soft.csv"] {
            let run = try Shell.run(binaries + "/xmpp-register", ["handout", "report.csv", "-o", output],
                                    in: URL(fileURLWithPath: directory), environment: environment)
            XCTAssertEqual(run.status, 2, "-o \(output): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("would overwrite the report"), "-o \(output): \(run.stderr)")
            XCTAssertEqual(try String(contentsOfFile: report, encoding: .utf8), text, "-o \(output) left the report as it was")
        }
    }
}
