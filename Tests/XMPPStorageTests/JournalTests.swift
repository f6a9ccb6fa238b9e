import Foundation
import XCTest
import XMPPStorage

/// The batch journal: what a new run records, what a resumed run finds, and the refusals that
/// keep a run's record from being lost or mixed up.
final class JournalTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws { directory = try scratchDirectory("journal") }

    private var path: String { directory + "/batch.journal" }

    private func plan() -> [JournalEntry] {
        [
            JournalEntry(line: 2, jid: "a@example.org", status: .pending),
            JournalEntry(line: 3, jid: "bad user", status: .invalid, error: "invalid JID"),
            JournalEntry(line: 5, jid: "b@example.org", status: .pending, generatedPassword: "gen-secret"),
        ]
    }

    func testNewJournalRecordsPlanWithMode0600() throws {
        let journal = try BatchJournal(path: path, identity: .test("id-1"), start: .fresh)
        XCTAssertFalse(journal.resumed)
        try journal.insert(plan())
        XCTAssertEqual(try journal.entries(), plan())
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
    }

    /// `xmpp-register sync`, which has no --resume: the same run continues, a finished one is
    /// replaced, and an unfinished one of another plan is refused.
    func testContinueUnfinishedResumesReplacesOrRefuses() throws {
        do {
            let journal = try BatchJournal(path: path, identity: .test("sync-1"), start: .continueUnfinished)
            XCTAssertFalse(journal.resumed, "no journal yet: a new one")
            try journal.insert([JournalEntry(line: 2, jid: "a@example.org", status: .pending)])
        }
        do {
            let journal = try BatchJournal(path: path, identity: .test("sync-1"), start: .continueUnfinished)
            XCTAssertTrue(journal.resumed, "the same unfinished run continues")
            XCTAssertEqual(try journal.entries().map(\.jid), ["a@example.org"])
            // The server acted on it: an unfinished run that did nothing there would be replaced.
            try journal.record([JournalUpdate(line: 2, status: .created)])
        }
        XCTAssertThrowsError(try BatchJournal(path: path, identity: .test("sync-2"), start: .continueUnfinished)) { error in
            guard case .mismatch = error as? JournalError else { return XCTFail("\(error)") }
        }
        do {
            let journal = try BatchJournal(path: path, identity: .test("sync-1"), start: .continueUnfinished)
            try journal.record([JournalUpdate(line: 2, status: .created)])
            try journal.setFinished(true)
        }
        let next = try BatchJournal(path: path, identity: .test("sync-2"), start: .continueUnfinished)
        XCTAssertFalse(next.resumed, "a finished run is replaced by the next")
        XCTAssertEqual(try next.entries(), [])
    }

    func testSentThenRecordedSurvivesReopenAndResumes() throws {
        do {
            let journal = try BatchJournal(path: path, identity: .test("id-1"), start: .fresh)
            try journal.insert(plan())
            try journal.markSent(lines: [2, 5])
            try journal.record([JournalUpdate(line: 2, status: .created, profile: "pending:nickname")])
            // No setFinished: the process "dies" here.
        }
        let resumed = try BatchJournal(path: path, identity: .test("id-1"), start: .resume)
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
            let journal = try BatchJournal(path: path, identity: .test("id-1"), start: .fresh)
            try journal.insert(plan())
            try journal.record([JournalUpdate(line: 2, status: .created)])
        }
        XCTAssertThrowsError(try BatchJournal(path: path, identity: .test("id-1"), start: .fresh)) { error in
            XCTAssertEqual(error as? JournalError, .unfinished(path: path, done: 2, total: 3, sameBatch: true, passwords: 1))
        }
        XCTAssertEqual(try BatchJournal(path: path, identity: .test("id-1"), start: .resume).entries().count, 3)
    }

    func testFinishedJournalIsReplacedByAFreshRunOnlyOnceItsPasswordsAreWiped() throws {
        do {
            let journal = try BatchJournal(path: path, identity: .test("id-1"), start: .fresh)
            try journal.insert(plan())
            try journal.setFinished(true)
        }
        // The report could not take the password: this journal is its only copy.
        XCTAssertThrowsError(try BatchJournal(path: path, identity: .test("id-2"), start: .fresh)) { error in
            XCTAssertEqual(error as? JournalError, .holdsPasswords(path: path, count: 1))
            XCTAssertFalse("\(error)".contains("remove"), "\(error)")
        }
        try BatchJournal(path: path, identity: .test("id-1"), start: .resume).wipePasswords()
        let fresh = try BatchJournal(path: path, identity: .test("id-2"), start: .fresh)
        XCTAssertFalse(fresh.resumed)
        XCTAssertEqual(try fresh.entries(), [])
    }

    static let inBand = BatchIdentity.batch(mode: .create, domain: "school.example", shard: nil, options: [.generatePasswords],
                                            inputSHA256: "ab", directoryMap: nil)
    static let asAdmin = BatchIdentity.batch(mode: .create, domain: "school.example", shard: nil, options: [.generatePasswords, .admin],
                                             inputSHA256: "ab", directoryMap: nil)

    /// Issue 27 item 4: a first run the server refused at once (registration closed to in-band
    /// clients) left rows pending, a refused one failed, and no password: the corrected run with
    /// --admin takes the journal over, fresh or with --resume, and says what differed.
    func testAnUnfinishedRunTheServerDidNothingForIsReplaced() throws {
        for start in [BatchJournal.Start.fresh, .resume] {
            try? FileManager.default.removeItem(atPath: path)
            do {
                let journal = try BatchJournal(path: path, identity: Self.inBand, start: .fresh)
                try journal.insert([JournalEntry(line: 2, jid: "a@x", status: .pending), JournalEntry(line: 3, jid: "b@x", status: .pending),
                                    JournalEntry(line: 4, jid: "bad", status: .invalid, error: "invalid JID")])
                try journal.markSent(lines: [2, 3], generated: [2: "p2", 3: "p3"])
                // The server's refusal of both: not created, their passwords never set.
                try journal.record([JournalUpdate(line: 2, status: .pending, dropPassword: true),
                                    JournalUpdate(line: 3, status: .failed, error: "refused", dropPassword: true)])
                XCTAssertEqual(try journal.passwordCount(), 0)
            }
            let corrected = try BatchJournal(path: path, identity: Self.asAdmin, start: start)
            XCTAssertFalse(corrected.resumed)
            XCTAssertEqual(try corrected.entries(), [], "a new run, with nothing of the old one")
            XCTAssertEqual(corrected.replacedUntouched, [.option(.admin, recorded: false)])
        }
    }

    /// A row the server may have acted on keeps the journal; the refusal names the option that differs.
    func testAnUnfinishedRunWithWorkDoneStillBlocksAndNamesTheDifference() throws {
        let cases: [(JournalEntry, JournalUpdate?)] = [
            (JournalEntry(line: 2, jid: "a@x", status: .pending), JournalUpdate(line: 2, status: .created)),
            (JournalEntry(line: 2, jid: "a@x", status: .pending), nil),  // sent, never answered: it may exist
            (JournalEntry(line: 2, jid: "a@x", status: .pending, generatedPassword: "only-here"), JournalUpdate(line: 2, status: .pending)),
        ]
        for (entry, update) in cases {
            try? FileManager.default.removeItem(atPath: path)
            do {
                let journal = try BatchJournal(path: path, identity: Self.inBand, start: .fresh)
                try journal.insert([entry])
                if let update {
                    try journal.record([update])
                } else {
                    try journal.markSent(lines: [2])
                }
            }
            XCTAssertThrowsError(try BatchJournal(path: path, identity: Self.asAdmin, start: .fresh)) { error in
                guard case .unfinished(_, _, _, false, _, let differences, true)? = error as? JournalError else { return XCTFail("\(error)") }
                XCTAssertEqual(differences, [.option(.admin, recorded: false)])
            }
            // --admin alone differs: --resume takes the rows over, keeping what was done.
            let resumed = try BatchJournal(path: path, identity: Self.asAdmin, start: .resume)
            XCTAssertTrue(resumed.resumed)
            XCTAssertEqual(resumed.resumedAcross, [.option(.admin, recorded: false)])
            XCTAssertEqual(try resumed.entries().count, 1)
        }
        // Anything else that differs still blocks --resume, naming it.
        try? FileManager.default.removeItem(atPath: path)
        do {
            let journal = try BatchJournal(path: path, identity: Self.inBand, start: .fresh)
            try journal.insert([JournalEntry(line: 2, jid: "a@x", status: .pending)])
            try journal.record([JournalUpdate(line: 2, status: .created)])
        }
        var otherDomain = Self.asAdmin
        otherDomain.domain = "other.example"
        XCTAssertThrowsError(try BatchJournal(path: path, identity: otherDomain, start: .resume)) { error in
            guard case .mismatch(_, _, _, let differences)? = error as? JournalError else { return XCTFail("\(error)") }
            XCTAssertEqual(differences, [.option(.admin, recorded: false), .domain(recorded: "school.example", current: "other.example")])
        }
    }

    func testJournalCommitsAreSyncedInFull() throws {
        do {
            let journal = try BatchJournal(path: path, identity: .test("id-1"), start: .fresh)
            XCTAssertEqual(try journal.synchronousSetting(), 2, "PRAGMA synchronous=FULL: a power loss keeps every sent mark")
        }
        XCTAssertEqual(try BatchJournal(path: path, identity: .test("id-1"), start: .resume).synchronousSetting(), 2, "also when resumed")
    }

    func testGeneratedPasswordIsStoredWhenSentAndDroppedWhenNeverSet() throws {
        let journal = try BatchJournal(path: path, identity: .test("id-1"), start: .fresh)
        try journal.insert([JournalEntry(line: 2, jid: "a@x", status: .pending), JournalEntry(line: 3, jid: "b@x", status: .pending),
                            JournalEntry(line: 4, jid: "c@x", status: .pending)])
        XCTAssertEqual(try journal.adoptPasswords(["c@x": "from-report", "zz@x": "elsewhere"]), 1)
        try journal.markSent(lines: [2, 3], generated: [2: "p2", 3: "p3"])
        try journal.markSent(lines: [2], generated: [2: "other"])
        XCTAssertEqual(try journal.entries().map(\.generatedPassword), ["p2", "p3", "from-report"], "a row keeps its first password")
        try journal.record([JournalUpdate(line: 2, status: .created),
                            JournalUpdate(line: 3, status: .exists, dropPassword: true),
                            JournalUpdate(line: 4, status: .exists, dropPassword: true)])
        let entries = try journal.entries()
        XCTAssertEqual(entries.map(\.generatedPassword), ["p2", nil, "from-report"], "a report's password is never dropped")
        XCTAssertEqual(entries.map(\.passwordKept), [false, false, true])
        // The CSV now gives row 4 a password and the server set it: the report's one is stale.
        try journal.record([JournalUpdate(line: 4, status: .created, dropKeptPassword: true)])
        XCTAssertNil(try journal.entries()[2].generatedPassword)
    }

    func testWipedPasswordsLeaveNoTraceInTheFiles() throws {
        let secret = "Zq7" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let journal = try BatchJournal(path: path, identity: .test("id-1"), start: .fresh)
        try journal.insert([JournalEntry(line: 2, jid: "a@x", status: .pending)])
        try journal.markSent(lines: [2], generated: [2: secret])
        try journal.record([JournalUpdate(line: 2, status: .created)])
        func filesHoldSecret() -> Bool {
            [path, path + "-wal"].contains { file in
                guard let data = FileManager.default.contents(atPath: file) else { return false }
                return data.range(of: Data(secret.utf8)) != nil
            }
        }
        XCTAssertTrue(filesHoldSecret(), "the test must see the password before the wipe")
        try journal.wipePasswords()
        XCTAssertEqual(try journal.passwordCount(), 0)
        XCTAssertFalse(filesHoldSecret(), "neither the database nor its write-ahead log keeps a wiped password")
    }

    func testOlderJournalIsUpgradedOnResume() throws {
        do {
            let db = try Database(path: path)
            try db.execute("""
                CREATE TABLE journal_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE journal_rows (line INTEGER PRIMARY KEY, jid TEXT NOT NULL, status TEXT NOT NULL, error TEXT,
                    retryable INTEGER NOT NULL DEFAULT 0, uncertain INTEGER NOT NULL DEFAULT 0, attempts INTEGER NOT NULL DEFAULT 0,
                    generated_password TEXT, profile TEXT, updated_at INTEGER NOT NULL DEFAULT 0);
                INSERT INTO journal_meta VALUES ('identity', '\(BatchIdentity.test("id-1").text)'), ('finished', '0');
                INSERT INTO journal_rows (line, jid, status, generated_password) VALUES (2, 'a@x', 'sent', 'old-gen');
                """)
        }
        let journal = try BatchJournal(path: path, identity: .test("id-1"), start: .resume)
        XCTAssertEqual(try journal.entries(), [JournalEntry(line: 2, jid: "a@x", status: .sent, generatedPassword: "old-gen")])
    }

    func testResumeRefusesAnotherBatch() throws {
        do {
            let journal = try BatchJournal(path: path, identity: .test("id-1"), start: .fresh)
            try journal.insert(plan())
        }
        XCTAssertThrowsError(try BatchJournal(path: path, identity: .test("id-other"), start: .resume)) { error in
            XCTAssertEqual(error as? JournalError, .mismatch(path: path, recorded: BatchIdentity.test("id-1").text, passwords: 1,
                                                             differences: [.input]))
        }
    }

    func testResumeWithoutJournalStartsFresh() throws {
        let journal = try BatchJournal(path: path, identity: .test("id-1"), start: .resume)
        XCTAssertFalse(journal.resumed)
        XCTAssertEqual(try journal.entries(), [])
    }

    func testSecondOpenWhileHeldIsLocked() throws {
        let first = try BatchJournal(path: path, identity: .test("id-1"), start: .fresh)
        XCTAssertThrowsError(try BatchJournal(path: path, identity: .test("id-1"), start: .resume)) { error in
            XCTAssertEqual(error as? JournalError, .locked(path: path))
        }
        _ = first
    }

    func testRecordKeepsProfileWhenNotGivenAndSetsFlags() throws {
        let journal = try BatchJournal(path: path, identity: .test("id-1"), start: .fresh)
        try journal.insert(plan())
        try journal.record([JournalUpdate(line: 2, status: .conflict, uncertain: true, profile: "pending:avatar")])
        try journal.record([JournalUpdate(line: 2, status: .failed, error: "boom", retryable: true, uncertain: true)])
        let entry = try XCTUnwrap(journal.entries().first)
        XCTAssertEqual(entry, JournalEntry(line: 2, jid: "a@example.org", status: .failed, error: "boom", retryable: true,
                                           uncertain: true, attempts: 0, profile: "pending:avatar"))
    }

    func testFinalStatuses() {
        XCTAssertEqual(JournalStatus.allCases.filter { !$0.isFinal }, [.pending, .sent, .conflict, .registered])
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

extension BatchIdentity {
    /// A batch's identity told apart by its input digest alone.
    static func test(_ input: String) -> BatchIdentity {
        .batch(mode: .create, domain: nil, shard: nil, options: [], inputSHA256: input, directoryMap: nil)
    }
}
