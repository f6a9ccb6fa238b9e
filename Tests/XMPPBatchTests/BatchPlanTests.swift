import TextFormats
import Foundation
import XCTest
import XMPPStanzas
import XMPPStorage
@testable import XMPPBatch

/// The plan of a new and of a resumed run, and when a password is dropped.
final class BatchPlanTests: XCTestCase {
    func testResumePlanTakesUnfinishedAndRetryableRowsOnly() throws {
        func row(_ line: Int, _ user: String, password: String? = "pw") throws -> CheckedRow {
            .valid(BatchRow(line: line, jid: try JID("\(user)@x.org"), password: password, newPassword: nil, profile: ProfileColumns()))
        }
        let checked = [try row(2, "a"), try row(3, "b"), try row(4, "c"), try row(5, "d"), try row(6, "e", password: nil),
                       .invalid(InvalidRow(line: 7, jidText: "bad", reason: "no"))]
        let entries = [
            JournalEntry(line: 2, jid: "a@x.org", status: .created),
            JournalEntry(line: 3, jid: "b@x.org", status: .sent, attempts: 1),
            JournalEntry(line: 4, jid: "c@x.org", status: .failed, error: "net", retryable: true),
            JournalEntry(line: 5, jid: "d@x.org", status: .conflict, uncertain: true),
            JournalEntry(line: 6, jid: "e@x.org", status: .pending, generatedPassword: "gen"),
            JournalEntry(line: 7, jid: "bad", status: .invalid, error: "no"),
            JournalEntry(line: 8, jid: "f@x.org", status: .registered, generatedPassword: "kept", profile: "pending:nickname",
                         passwordKept: true),
            JournalEntry(line: 9, jid: "g@x.org", status: .pending),
        ]
        let plan = try BatchPlan(checked: checked + [try row(8, "f", password: nil), try row(9, "g", password: nil)],
                                 entries: entries, mode: .create)
        XCTAssertEqual(plan.work.map(\.row.line), [3, 4, 6, 9])
        XCTAssertEqual(plan.work.map(\.uncertain), [true, false, false, false])
        XCTAssertEqual(plan.work.map(\.password), ["pw", "pw", "gen", nil], "a password is generated only when its row is sent")
        XCTAssertEqual(plan.work.map(\.source), [.csv, .csv, .generated, .generated])
        XCTAssertEqual(plan.followUps.map(\.item.row.line), [5, 8])
        XCTAssertEqual(plan.followUps.map(\.task), [.verifyCreated, .profile], "a created row's profile is finished on resume")
        XCTAssertEqual(plan.followUps.last?.item.source, .report)
        XCTAssertEqual(plan.doneEarlier, 1)
    }

    func testNewPlanRecordsRowsWithoutGeneratingPasswords() throws {
        let checked: [CheckedRow] = [
            .valid(BatchRow(line: 2, jid: try JID("a@x.org"), password: "given", newPassword: nil, profile: ProfileColumns())),
            .valid(BatchRow(line: 3, jid: try JID("b@x.org"), password: nil, newPassword: nil, profile: ProfileColumns())),
            .invalid(InvalidRow(line: 4, jidText: "x", reason: "bad")),
        ]
        let entries = BatchPlan.entries(for: checked)
        XCTAssertEqual(entries.map(\.generatedPassword), [nil, nil, nil], "no password before its row is about to be created")
        XCTAssertEqual(entries[2], JournalEntry(line: 4, jid: "x", status: .invalid, error: "bad"))
        XCTAssertNotEqual(BatchInput.generatePassword(), BatchInput.generatePassword())
        XCTAssertTrue(BatchInput.generatePassword().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    func testPasswordIsDroppedOnlyWhenTheServerCertainlyDidNotSetIt() {
        XCTAssertTrue(RowOutcome(line: 2, jid: "a", status: .exists).passwordNotSet)
        XCTAssertTrue(RowOutcome(line: 2, jid: "a", status: .failed, error: "not-acceptable").passwordNotSet)
        XCTAssertFalse(RowOutcome(line: 2, jid: "a", status: .failed, error: "net", retryable: true).passwordNotSet)
        XCTAssertFalse(RowOutcome(line: 2, jid: "a", status: .failed, error: "x", uncertain: true).passwordNotSet)
        XCTAssertFalse(RowOutcome(line: 2, jid: "a", status: .created).passwordNotSet)
        XCTAssertFalse(RowOutcome(line: 2, jid: "a", status: .sent).passwordNotSet)
    }
}
