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

    override func setUpWithError() throws { directory = try scratchDirectory("batchrun") }

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

/// A report, a report directory or a journal file another local user planted is not trusted
/// (the tests run as root; "another user" is a uid given with chown).
final class BatchRunTrustTests: XCTestCase {
    private var directory = ""
    private let stranger: uid_t = 54321

    override func setUpWithError() throws { directory = try scratchDirectory("batchtrust") }

    private func run(report: String, byGroup: String? = nil) throws -> BatchRun {
        var configuration = BatchConfiguration()
        configuration.generatePasswords = true
        configuration.reportByGroup = byGroup
        let sheet = try BatchSheet(input: Array("jid\na@example.org\n".utf8), name: "x.csv", configuration: configuration,
                                   baseDirectory: directory)
        return try BatchRun(sheet: sheet, configuration: configuration, reportPath: report, stateDirectory: directory + "/state")
    }

    func testAReportAnotherUserPlantedDoesNotSetPasswords() throws {
        let report = directory + "/report.csv"
        try Data("line,jid,status,error,profile,password,note\r\n2,a@example.org,created,,,chosen-by-mallory,\r\n".utf8)
            .write(to: URL(fileURLWithPath: report))
        XCTAssertEqual(chmod(report, 0o600), 0)
        XCTAssertEqual(chown(report, stranger, gid_t(stranger)), 0)
        XCTAssertThrowsError(try run(report: report)) { error in
            guard case .unreadableReport(report, let reason)? = error as? BatchError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("owned by uid 54321"), reason)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: report + ".journal"), "refused before anything was recorded")
    }

    func testAReportDirectoryOthersCanWriteIsRefusedUpFront() throws {
        let shared = directory + "/provisioning"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(shared, 0o770), 0)
        XCTAssertThrowsError(try run(report: shared + "/report.csv")) { error in
            guard case .unsafeReport? = error as? BatchError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("writable by its group"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shared), [])
    }

    /// `--report-by-group DIR` planted as a link (or below a directory another user can write)
    /// is refused before any row is recorded, as the report's directory is: found only when the
    /// split is written, the accounts were made by then and the run ended in a failure.
    func testAGroupReportDirectoryThatIsALinkIsRefusedUpFront() throws {
        let theirs = directory + "/theirs"
        try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: true)
        XCTAssertEqual(chown(theirs, stranger, gid_t(stranger)), 0)
        XCTAssertEqual(symlink(theirs, directory + "/groups"), 0)
        let report = directory + "/report.csv"
        XCTAssertThrowsError(try run(report: report, byGroup: directory + "/groups")) { error in
            guard case .unsafeReportByGroup? = error as? BatchError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("--report-by-group") && "\(error)".contains("symbolic link"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: report + ".journal"), "refused before anything was recorded")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: theirs), [])

        // Not made yet: the directories above it are what is checked.
        let open = directory + "/open"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(open, 0o777), 0)
        XCTAssertThrowsError(try run(report: directory + "/report2.csv", byGroup: open + "/groups")) { error in
            guard case .unsafeReportByGroup? = error as? BatchError else { return XCTFail("\(error)") }
        }
        XCTAssertNoThrow(try run(report: directory + "/report3.csv", byGroup: directory + "/mine"), "a directory of one's own, made later")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/mine"), "made only when the split is written")
    }

    func testAPlantedJournalWriteAheadLogIsRefused() throws {
        let report = directory + "/report.csv"
        let wal = report + ".journal-wal"
        XCTAssertTrue(FileManager.default.createFile(atPath: wal, contents: nil, attributes: [.posixPermissions: 0o666]))
        XCTAssertEqual(chown(wal, stranger, gid_t(stranger)), 0)
        XCTAssertThrowsError(try run(report: report)) { error in
            guard case .storage(.untrusted(wal, _))? = error as? JournalError else { return XCTFail("\(error)") }
        }
        var st = stat()
        XCTAssertEqual(stat(wal, &st), 0)
        XCTAssertEqual(st.st_size, 0, "not one byte went into it")
    }

    func testAReportThatCannotBeWrittenIsAFailureNotASuccess() throws {
        let report = directory + "/report.csv"
        let batch = try run(report: report)
        _ = try batch.plan()
        // The report's name is taken by a symlink planted after the run began.
        XCTAssertEqual(symlink(directory + "/collector", report), 0)
        let finish = try batch.finish()
        guard case .untrusted(report, _)? = finish.reportFailure else { return XCTFail("\(String(describing: finish.reportFailure))") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/collector"))
    }
}
