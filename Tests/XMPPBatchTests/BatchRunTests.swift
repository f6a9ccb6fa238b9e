import Foundation
import XCTest
import XMPPConnection
import XMPPStorage
@testable import XMPPBatch

/// A run against its journal without the command line: what a new run records, what a stop
/// before any request leaves for --resume, and what the report then says.
final class BatchRunTests: XCTestCase {
    private final class Heard: BatchEvents {
        var rows: [RowOutcome] = []
        var counts: [Int] = []
        func rowFinished(_ outcome: RowOutcome) { rows.append(outcome) }
        func rowsFinished(_ count: Int) { counts.append(count) }
    }

    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "xt-batchrun-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func sheet(_ configuration: BatchConfiguration) throws -> BatchSheet {
        let csv = "jid,password\na@example.org,pw-a\nb@example.org,pw-b\nnot a jid,pw\n"
        return try BatchSheet(input: Array(csv.utf8), name: "x.csv", configuration: configuration, baseDirectory: directory)
    }

    private func endpoint(_ domain: String) throws -> BatchEndpoint {
        BatchEndpoint(options: ConnectionOptions(domain: domain, serverHost: "127.0.0.1", serverPort: 9),
                      tls: try TLSContext(settings: TLSSettings()))
    }

    func testAStopBeforeAnyRequestLeavesEveryRowForResume() throws {
        var configuration = BatchConfiguration()
        let report = directory + "/report.csv"
        try stopAtOnce(configuration, report: report)

        // The unfinished journal is refused without --resume, and continued with it.
        XCTAssertThrowsError(try BatchRun(sheet: try sheet(configuration), configuration: configuration, reportPath: report,
                                          stateDirectory: directory + "/state")) { error in
            guard case .unfinished? = error as? JournalError else { return XCTFail("\(error)") }
        }
        configuration.resume = true
        let resumed = try BatchRun(sheet: try sheet(configuration), configuration: configuration, reportPath: report,
                                   stateDirectory: directory + "/state")
        XCTAssertTrue(resumed.resumed)
        XCTAssertEqual(try resumed.plan().toDo, 2)
    }

    /// A run that is told to stop before it sends anything; its journal is closed on return.
    private func stopAtOnce(_ configuration: BatchConfiguration, report: String) throws {
        let run = try BatchRun(sheet: try sheet(configuration), configuration: configuration, reportPath: report,
                               stateDirectory: directory + "/state")
        XCTAssertFalse(run.resumed)
        XCTAssertEqual(run.journal.path, report + ".journal")
        let plan = try run.plan()
        XCTAssertEqual(plan.toDo, 2, "the invalid row is recorded, not planned")
        let heard = Heard()
        XCTAssertEqual(try run.execute(plan, endpoint: endpoint, events: heard, shouldStop: { true }), .interrupted)
        XCTAssertTrue(heard.rows.isEmpty)
        let finish = try run.finish()
        XCTAssertFalse(finish.finished)
        XCTAssertNil(finish.reportFailure)
        XCTAssertEqual(finish.entries.map(\.status), [.pending, .pending, .invalid])
        let text = try String(contentsOfFile: report, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("line,jid,status,error,profile,note\r\n2,a@example.org,pending,"), text)
    }

    func testWithoutAReportTheJournalLivesInTheStateDirectory() throws {
        let configuration = BatchConfiguration()
        let run = try BatchRun(sheet: try sheet(configuration), configuration: configuration, reportPath: nil,
                               stateDirectory: directory + "/state")
        XCTAssertTrue(run.journal.path.hasPrefix(directory + "/state/batch/"), run.journal.path)
        XCTAssertTrue(run.journal.path.hasSuffix(".sqlite3"))
        XCTAssertEqual(try run.finish().entries.count, 3)
    }
}
