import Foundation
import XCTest
import XMPPStorage

/// A batch's identity is a typed value recorded as the text journals have always held, so a
/// journal written before the type existed is found (its file name is the text's digest),
/// read back and continued; text this version does not read is another batch, said plainly.
final class BatchIdentityTests: XCTestCase {
    private var directory = ""
    override func setUpWithError() throws { directory = try scratchDirectory("identity") }
    private var path: String { directory + "/batch.journal" }

    /// What xmpp-register wrote into journals before the identity was typed (BatchInput and SyncRun's strings).
    static let recordedBatch = "xmpp-register batch v1; mode=create; domain=school.example; shard=2/3; generate=1; admin=1; "
        + "shared-groups=1; input-sha256=ab12; ldif-map=uid=username,cn=fullname"
    static let recordedSync = "xmpp-register sync v1; domain=-; input-sha256=ab12; plan-sha256=cd34"

    func testRecordedTextReadsBackToTheSameIdentity() throws {
        let batch = try XCTUnwrap(BatchIdentity(text: Self.recordedBatch))
        XCTAssertEqual(batch, .batch(mode: .create, domain: "school.example", shard: "2/3", options: [.generatePasswords, .admin, .sharedGroups],
                                     inputSHA256: "ab12", directoryMap: "uid=username,cn=fullname"))
        XCTAssertEqual(batch.text, Self.recordedBatch, "byte for byte: the journal's file name is its digest")
        let sync = try XCTUnwrap(BatchIdentity(text: Self.recordedSync))
        XCTAssertEqual(sync, .sync(domain: nil, inputSHA256: "ab12", planSHA256: "cd34"))
        XCTAssertEqual(sync.text, Self.recordedSync)
        let plain = BatchIdentity.batch(mode: .delete, domain: nil, shard: nil, options: [], inputSHA256: "ff", directoryMap: nil)
        XCTAssertEqual(plain.text, "xmpp-register batch v1; mode=delete; domain=-; shard=-; generate=0; input-sha256=ff")
        XCTAssertEqual(BatchIdentity(text: plain.text), plain)
    }

    /// Text of another version, or of no batch, is not taken for one.
    func testOtherTextIsNoIdentity() {
        for text in ["", "id-1", "xmpp-register batch v2; mode=create; domain=-; shard=-; generate=0; input-sha256=ff",
                     "xmpp-register batch v1; mode=create; domain=-; shard=-; generate=0; admin=0; input-sha256=ff",
                     "xmpp-register batch v1; mode=create; domain=-; shard=-; generate=0; input-sha256=ff; extra=1",
                     "xmpp-register batch v1; mode=rename; domain=-; shard=-; generate=0; input-sha256=ff",
                     "xmpp-register batch v1; mode=create; domain=-; shard=-; generate=0",
                     "xmpp-register batch v1; domain=-; shard=-; mode=create; generate=0; input-sha256=ff",
                     "xmpp-register sync v1; domain=-; input-sha256=ab12"] {
            XCTAssertNil(BatchIdentity(text: text), text)
        }
    }

    /// A journal on disk written by the string-identity code is continued by the typed identity.
    func testAJournalWrittenBeforeTheTypeIsResumed() throws {
        try writeOldJournal(identity: Self.recordedBatch)
        let journal = try BatchJournal(path: path, identity: try XCTUnwrap(BatchIdentity(text: Self.recordedBatch)), start: .resume)
        XCTAssertTrue(journal.resumed)
        XCTAssertEqual(try journal.entries().map(\.jid), ["a@x"])
    }

    /// A journal whose identity this version does not read is refused as another batch, with
    /// what to say (the command layer words `.otherVersion`), and left as it is.
    func testAJournalOfAnotherVersionIsRefusedPlainly() throws {
        let foreign = "xmpp-register batch v0; csv=ab12"
        try writeOldJournal(identity: foreign)
        let current = try XCTUnwrap(BatchIdentity(text: Self.recordedBatch))
        XCTAssertThrowsError(try BatchJournal(path: path, identity: current, start: .resume)) { error in
            XCTAssertEqual(error as? JournalError, .mismatch(path: path, recorded: foreign, passwords: 0, differences: [.otherVersion]))
        }
        XCTAssertThrowsError(try BatchJournal(path: path, identity: current, start: .fresh)) { error in
            guard case .unfinished(_, _, _, false, _, [.otherVersion], false)? = error as? JournalError else { return XCTFail("\(error)") }
        }
    }

    /// Differences are typed: each option by name, --invite's administrator streams not named twice.
    func testDifferencesAreTyped() throws {
        let recorded = try XCTUnwrap(BatchIdentity(text: "xmpp-register batch v1; mode=create; domain=school.example; shard=-; generate=1; input-sha256=ab"))
        let other = try XCTUnwrap(BatchIdentity(text: "xmpp-register batch v1; mode=delete; domain=-; shard=1/2; generate=0; invite=1; input-sha256=cd"))
        XCTAssertEqual(BatchIdentity.differences(recorded: recorded, recordedText: recorded.text, current: other), [
            .option(.invite, recorded: false), .option(.generatePasswords, recorded: true),
            .mode(recorded: .create, current: .delete), .domain(recorded: "school.example", current: nil),
            .shard(recorded: nil, current: "1/2"), .input,
        ])
        XCTAssertEqual(BatchIdentity.differences(recorded: recorded, recordedText: recorded.text, current: recorded), [])
        var invite = recorded
        invite.options.formUnion([.admin, .invite])
        XCTAssertEqual(BatchIdentity.differences(recorded: recorded, recordedText: recorded.text, current: invite),
                       [.option(.invite, recorded: false)], "--invite implies the administrator's streams")
        XCTAssertEqual(BatchIdentity.differences(recorded: nil, recordedText: "", current: recorded), [.notAJournal])
    }

    private func writeOldJournal(identity: String) throws {
        let db = try Database(path: path)
        try db.query("CREATE TABLE journal_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)", [])
        try db.execute("""
            CREATE TABLE journal_rows (line INTEGER PRIMARY KEY, jid TEXT NOT NULL, status TEXT NOT NULL, error TEXT,
                retryable INTEGER NOT NULL DEFAULT 0, uncertain INTEGER NOT NULL DEFAULT 0, attempts INTEGER NOT NULL DEFAULT 0,
                generated_password TEXT, profile TEXT, updated_at INTEGER NOT NULL DEFAULT 0);
            INSERT INTO journal_rows (line, jid, status) VALUES (2, 'a@x', 'created');
            """)
        try db.query("INSERT INTO journal_meta VALUES ('identity', ?), ('finished', '0')", [.text(identity)])
    }
}
