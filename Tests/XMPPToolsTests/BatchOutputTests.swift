import TextFormats
import Foundation
import XCTest
import XMPPStanzas
import XMPPStorage
@testable import XMPPTools

/// JSON Lines, the report CSV, the progress bar, the summary, and the plan of a resumed run.
final class BatchOutputTests: XCTestCase {
    func testJSONLineShape() {
        let created = RowOutcome(line: 2, jid: "a@x.org", status: .created, profile: .pending(["nickname", "avatar"]))
        XCTAssertEqual(BatchOutput.json(created).compact,
                       #"{"line":2,"jid":"a@x.org","status":"created","error":null,"profile":"pending","pending_columns":["nickname","avatar"]}"#)
        let failed = RowOutcome(line: 9, jid: "b@x.org", status: .failed, error: "not-acceptable: bad")
        XCTAssertEqual(BatchOutput.json(failed).compact,
                       #"{"line":9,"jid":"b@x.org","status":"failed","error":"not-acceptable: bad","profile":null}"#)
        XCTAssertTrue(created.succeeded)
        XCTAssertFalse(failed.succeeded)
        XCTAssertFalse(RowOutcome(line: 1, jid: "c@x", status: .exists, error: "exists (--on-exists fail)").succeeded)
        XCTAssertFalse(RowOutcome(line: 1, jid: "c@x", status: .conflict).succeeded)
    }

    func testReportQuotesFieldsAndKeepsThemExact() throws {
        let entries = [
            JournalEntry(line: 3, jid: "b@x", status: .failed, error: "text, with \"quotes\""),
            JournalEntry(line: 2, jid: "a@x", status: .created, generatedPassword: "-secret", profile: "pending:nickname,avatar"),
            JournalEntry(line: 4, jid: "=cmd()", status: .invalid, error: "bad\nline"),
        ]
        let text = String(decoding: BatchReport.csv(entries, includePasswords: true), as: UTF8.self)
        XCTAssertEqual(text, "line,jid,status,error,profile,password\r\n"
            + "2,a@x,created,,pending: nickname avatar,-secret\r\n"
            + "3,b@x,failed,\"text, with \"\"quotes\"\"\",,\r\n"
            + "4,=cmd(),invalid,\"bad\nline\",,\r\n")
        // The report reads back with the tool's own CSV reader.
        let records = try CSVReader.parse(Array(text.utf8))
        XCTAssertEqual(records.map(\.fields.count), [6, 6, 6, 6])
        XCTAssertEqual(records[2].fields[3], "text, with \"quotes\"")
    }

    func testProgressBarAndClock() {
        XCTAssertEqual(BatchOutput.bar(done: 50, total: 200, elapsed: .seconds(1), width: 8), "50/200 [##------] 25%  50/s  ETA 0:03")
        XCTAssertEqual(BatchOutput.bar(done: 200, total: 200, elapsed: .seconds(2), width: 4), "200/200 [####] 100%  100/s")
        XCTAssertEqual(BatchOutput.clock(3725), "1:02:05")
        XCTAssertEqual(BatchOutput.clock(0.2), "0:01")
    }

    func testSummaryCountsWholeBatch() {
        let entries = [
            JournalEntry(line: 2, jid: "a", status: .created), JournalEntry(line: 3, jid: "b", status: .created),
            JournalEntry(line: 4, jid: "c", status: .exists), JournalEntry(line: 5, jid: "d", status: .invalid, error: "x"),
            JournalEntry(line: 6, jid: "e", status: .pending),
        ]
        let summary = BatchSummary(entries: entries, ranFor: 2, finishedThisRun: 3)
        XCTAssertEqual(summary.text, "5 rows: 2 created, 1 exists, 1 invalid, 1 not done; this run finished 3 in 2.0 s (2/s)")
        XCTAssertFalse(summary.allSucceeded)
        XCTAssertTrue(BatchSummary(entries: Array(entries.prefix(3)), ranFor: 1, finishedThisRun: 3).allSucceeded)
    }

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
        ]
        let plan = try BatchPlan(checked: checked, entries: entries, mode: .create)
        XCTAssertEqual(plan.work.map(\.row.line), [3, 4, 6])
        XCTAssertEqual(plan.work.map(\.uncertain), [true, false, false])
        XCTAssertEqual(plan.work.map(\.password), ["pw", "pw", "gen"])
        XCTAssertEqual(plan.followUps.map(\.row.line), [5])
        XCTAssertEqual(plan.doneEarlier, 1)
    }

    func testNewPlanGeneratesPasswordsOnlyWhereMissing() throws {
        let checked: [CheckedRow] = [
            .valid(BatchRow(line: 2, jid: try JID("a@x.org"), password: "given", newPassword: nil, profile: ProfileColumns())),
            .valid(BatchRow(line: 3, jid: try JID("b@x.org"), password: nil, newPassword: nil, profile: ProfileColumns())),
            .invalid(InvalidRow(line: 4, jidText: "x", reason: "bad")),
        ]
        let entries = BatchPlan.entries(for: checked, mode: .create, generate: true)
        XCTAssertNil(entries[0].generatedPassword)
        XCTAssertEqual(entries[1].generatedPassword?.count, 24)
        XCTAssertEqual(entries[2], JournalEntry(line: 4, jid: "x", status: .invalid, error: "bad"))
        XCTAssertNotEqual(BatchInput.generatePassword(), BatchInput.generatePassword())
        XCTAssertTrue(BatchInput.generatePassword().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    func testBackoffIsBoundedWithJitter() {
        let backoff = Backoff(base: .milliseconds(100), maximum: .seconds(2))
        for failures in 1...30 {
            let d = backoff.delay(failures: failures)
            let nominal = min(Duration.milliseconds(100) * (1 << min(failures - 1, 20)), .seconds(2))
            XCTAssertGreaterThanOrEqual(d, nominal * 0.5)
            XCTAssertLessThan(d, nominal * 1.5)
        }
    }

    func testThrottleClassification() {
        XCTAssertEqual(ReplyClassifier.verdict(StanzaError(type: "cancel", condition: "conflict")), .exists)
        XCTAssertEqual(ReplyClassifier.verdict(StanzaError(type: "wait", condition: "policy-violation")), .retry)
        XCTAssertEqual(ReplyClassifier.verdict(StanzaError(type: "modify", condition: "resource-constraint")), .retry)
        XCTAssertEqual(ReplyClassifier.verdict(StanzaError(type: "wait", condition: "internal-server-error")), .retry)
        XCTAssertEqual(ReplyClassifier.verdict(StanzaError(type: "modify", condition: "not-acceptable")), .refused)
        XCTAssertTrue(ReplyClassifier.isTransient(.connectFailed(host: "h", port: 1, reason: "refused")))
        XCTAssertTrue(ReplyClassifier.isTransient(.stream(StreamError(condition: "system-shutdown"))))
        XCTAssertFalse(ReplyClassifier.isTransient(.certificateRejected("self-signed")))
        XCTAssertFalse(ReplyClassifier.isTransient(.stream(StreamError(condition: "host-unknown"))))
    }
}
