import XCTest
import XMPPStorage
@testable import XMPPTools

/// xmpp-register's words for a journal it cannot take over: the options that differ by their
/// command-line names, and a way forward that never invites removing the only copy of passwords.
final class JournalWordsTests: XCTestCase {
    func testMessagesNeverInviteRemovingTheOnlyCopyOfPasswords() {
        let withPasswords = JournalWords.message(.unfinished(path: "/r.journal", done: 1, total: 3, sameBatch: true, passwords: 2))
        XCTAssertFalse(withPasswords.contains("remove"), withPasswords)
        XCTAssertTrue(withPasswords.contains("continue it with --resume; keep that file: it holds the only copy of 2 generated passwords"))
        let without = JournalWords.message(.unfinished(path: "/r.journal", done: 1, total: 3, sameBatch: true, passwords: 0))
        XCTAssertTrue(without.hasSuffix("continue it with --resume, or remove that file to start over"), without)
        let other = JournalWords.message(.unfinished(path: "/r.journal", done: 1, total: 3, sameBatch: false, passwords: 1))
        XCTAssertTrue(other.contains("a different batch"), other)
        XCTAssertFalse(other.contains("remove"), other)
        XCTAssertFalse(JournalWords.message(.mismatch(path: "/r.journal", recorded: "x", passwords: 1)).contains("remove"))
        XCTAssertEqual(ErrorMapping.failure(for: JournalError.locked(path: "/j")).message, "another xmpp-register batch is using /j")
    }

    func testDifferencesAreNamedByTheirOptions() {
        XCTAssertEqual(JournalWords.phrases([
            .option(.invite, recorded: false), .option(.generatePasswords, recorded: true),
            .mode(recorded: .create, current: .delete), .domain(recorded: "school.example", current: nil),
            .shard(recorded: nil, current: "1/2"), .input, .directoryMap, .otherVersion,
        ]), [
            "--invite: this run has it, the journal's run did not",
            "--generate-passwords: the journal's run had it, this one does not",
            "the journal's run created accounts, this one deletes accounts (--delete)",
            "--domain: the journal's run had school.example, this one has none",
            "--shard: the journal's run had none, this one has 1/2",
            "the CSV's content differs",
            "--map (the LDIF attributes' columns) differs",
            "it was recorded by another version of xmpp-register",
        ])
        let refusal = ErrorMapping.failure(for: JournalError.unfinished(path: "/j", done: 0, total: 1, sameBatch: false, passwords: 0,
                                                                      differences: [.option(.admin, recorded: false)], resumable: true))
        XCTAssertEqual(refusal.code, .usage)
        XCTAssertTrue(refusal.message.contains("a different batch (--admin: this run has it, the journal's run did not)"), refusal.message)
        XCTAssertTrue(refusal.message.contains("continue it with --resume, which takes its rows over"), refusal.message)
    }
}
