import Foundation
import XCTest
import XMPPStorage

/// The batch journal: what a new run records, what a resumed run finds, and the refusals that
/// keep a run's record from being lost or mixed up.
final class JournalTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "xt-journal-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private var path: String { directory + "/batch.journal" }

    private func plan() -> [JournalEntry] {
        [
            JournalEntry(line: 2, jid: "a@example.org", status: .pending),
            JournalEntry(line: 3, jid: "bad user", status: .invalid, error: "invalid JID"),
            JournalEntry(line: 5, jid: "b@example.org", status: .pending, generatedPassword: "gen-secret"),
        ]
    }

    func testNewJournalRecordsPlanWithMode0600() throws {
        let journal = try BatchJournal(path: path, identity: "id-1", start: .fresh)
        XCTAssertFalse(journal.resumed)
        try journal.insert(plan())
        XCTAssertEqual(try journal.entries(), plan())
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
    }

    func testSentThenRecordedSurvivesReopenAndResumes() throws {
        do {
            let journal = try BatchJournal(path: path, identity: "id-1", start: .fresh)
            try journal.insert(plan())
            try journal.markSent(lines: [2, 5])
            try journal.record([JournalUpdate(line: 2, status: .created, profile: "pending:nickname")])
            // No setFinished: the process "dies" here.
        }
        let resumed = try BatchJournal(path: path, identity: "id-1", start: .resume)
        XCTAssertTrue(resumed.resumed)
        let entries = try resumed.entries()
        XCTAssertEqual(entries.map(\.status), [.created, .invalid, .sent])
        XCTAssertEqual(entries[0].attempts, 1)
        XCTAssertEqual(entries[0].profile, "pending:nickname")
        XCTAssertEqual(entries[2].attempts, 1)
        XCTAssertEqual(entries[2].generatedPassword, "gen-secret", "a resumed run must reuse the generated password")
    }

    func testUnfinishedJournalIsNotOverwrittenWithoutResume() throws {
        do {
            let journal = try BatchJournal(path: path, identity: "id-1", start: .fresh)
            try journal.insert(plan())
            try journal.record([JournalUpdate(line: 2, status: .created)])
        }
        XCTAssertThrowsError(try BatchJournal(path: path, identity: "id-1", start: .fresh)) { error in
            XCTAssertEqual(error as? JournalError, .unfinished(path: path, done: 2, total: 3))
        }
        XCTAssertEqual(try BatchJournal(path: path, identity: "id-1", start: .resume).entries().count, 3)
    }

    func testFinishedJournalIsReplacedByAFreshRun() throws {
        do {
            let journal = try BatchJournal(path: path, identity: "id-1", start: .fresh)
            try journal.insert(plan())
            try journal.setFinished(true)
        }
        let fresh = try BatchJournal(path: path, identity: "id-2", start: .fresh)
        XCTAssertFalse(fresh.resumed)
        XCTAssertEqual(try fresh.entries(), [])
    }

    func testResumeRefusesAnotherBatch() throws {
        do {
            let journal = try BatchJournal(path: path, identity: "id-1", start: .fresh)
            try journal.insert(plan())
        }
        XCTAssertThrowsError(try BatchJournal(path: path, identity: "id-other", start: .resume)) { error in
            XCTAssertEqual(error as? JournalError, .mismatch(path: path, recorded: "id-1"))
        }
    }

    func testResumeWithoutJournalStartsFresh() throws {
        let journal = try BatchJournal(path: path, identity: "id-1", start: .resume)
        XCTAssertFalse(journal.resumed)
        XCTAssertEqual(try journal.entries(), [])
    }

    func testSecondOpenWhileHeldIsLocked() throws {
        let first = try BatchJournal(path: path, identity: "id-1", start: .fresh)
        XCTAssertThrowsError(try BatchJournal(path: path, identity: "id-1", start: .resume)) { error in
            XCTAssertEqual(error as? JournalError, .locked(path: path))
        }
        _ = first
    }

    func testRecordKeepsProfileWhenNotGivenAndSetsFlags() throws {
        let journal = try BatchJournal(path: path, identity: "id-1", start: .fresh)
        try journal.insert(plan())
        try journal.record([JournalUpdate(line: 2, status: .conflict, uncertain: true, profile: "pending:avatar")])
        try journal.record([JournalUpdate(line: 2, status: .failed, error: "boom", retryable: true, uncertain: true)])
        let entry = try XCTUnwrap(journal.entries().first)
        XCTAssertEqual(entry, JournalEntry(line: 2, jid: "a@example.org", status: .failed, error: "boom", retryable: true,
                                           uncertain: true, attempts: 0, profile: "pending:avatar"))
    }

    func testFinalStatuses() {
        XCTAssertEqual(JournalStatus.allCases.filter { !$0.isFinal }, [.pending, .sent, .conflict])
    }

    func testReportFileIsAtomicPrivateAndLeavesDirectoryModeAlone() throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
        let report = directory + "/report.csv"
        try SecureFile.write(Array("one\n".utf8), to: report)
        try SecureFile.write(Array("two\n".utf8), to: report)
        XCTAssertEqual(try String(contentsOfFile: report, encoding: .utf8), "two\n")
        let fileMode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: report)[.posixPermissions] as? Int)
        XCTAssertEqual(fileMode & 0o777, 0o600)
        let dirMode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int)
        XCTAssertEqual(dirMode & 0o777, 0o755, "the user's directory keeps its mode")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["report.csv"], "no temp files left")
        // A user's image or card gets the mode any new file gets (0666 less the umask).
        let image = directory + "/photo.png"
        let mask = umask(0o022)
        defer { umask(mask) }
        try SecureFile.write([1, 2, 3], to: image, mode: .shared)
        let imageMode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: image)[.posixPermissions] as? Int)
        XCTAssertEqual(imageMode & 0o777, 0o644)
    }
}
