import XCTest
import XMPPBatch
import XMPPStorage
@testable import XMPPTools

/// A batch whose every row succeeded but whose report could not be written ends with status 1.
final class BatchVerdictTests: XCTestCase {
    func testAnUnwrittenReportIsNeverExitZero() throws {
        let entries = [JournalEntry(line: 2, jid: "a@x.org", status: .created)]
        let summary = BatchSummary(entries: entries, ranFor: 1, finishedThisRun: 1)
        XCTAssertTrue(summary.allSucceeded)
        let output = BatchOutput(program: "xmpp-register", json: false, quiet: true, showProgress: false)
        var verdict = BatchVerdict(end: .completed, fatal: nil, summary: summary, finished: true, journalPath: "/j", reportPath: "/r")
        XCTAssertNoThrow(try verdict.conclude(output: output))
        verdict.reportProblem = "cannot write the report: /r is a symbolic link"
        XCTAssertThrowsError(try verdict.conclude(output: output)) { error in
            let failure = error as? ToolFailure
            XCTAssertEqual(failure?.code, .failed)
            XCTAssertTrue(failure?.message.hasPrefix("cannot write the report: /r") ?? false, "\(error)")
        }
    }
}
