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
                       #"{"line":2,"jid":"a@x.org","status":"created","error":null,"profile":"pending","pending_columns":["nickname","avatar"],"note":null}"#)
        let failed = RowOutcome(line: 9, jid: "b@x.org", status: .failed, error: "not-acceptable: bad")
        XCTAssertEqual(BatchOutput.json(failed).compact,
                       #"{"line":9,"jid":"b@x.org","status":"failed","error":"not-acceptable: bad","profile":null,"pending_columns":null,"note":null}"#)
        let gone = RowOutcome(line: 4, jid: "c@x.org", status: .deleted, note: "no such account")
        XCTAssertEqual(BatchOutput.json(gone).compact,
                       #"{"line":4,"jid":"c@x.org","status":"deleted","error":null,"profile":null,"pending_columns":null,"note":"no such account"}"#)
        XCTAssertTrue(gone.succeeded, "a note is no error")
        XCTAssertTrue(created.succeeded)
        XCTAssertFalse(failed.succeeded)
        XCTAssertFalse(RowOutcome(line: 1, jid: "c@x", status: .exists, error: "exists (--on-exists fail)").succeeded)
        XCTAssertFalse(RowOutcome(line: 1, jid: "c@x", status: .conflict).succeeded)
    }

    /// The keys the man page lists for --json, read from its text: the comma-separated names
    /// after "(null when it does not apply):", up to the sentence's end, parentheses skipped.
    private func documentedKeys() throws -> [String] {
        let paragraph = try XCTUnwrap(RegisterTool.Batch.spec.discussion.first { $0.hasPrefix("--json prints") })
        let marker = "(null when it does not apply): "
        let start = try XCTUnwrap(paragraph.range(of: marker)).upperBound
        var outside = "", depth = 0
        for c in paragraph[start...] {
            if c == "(" { depth += 1 } else if c == ")" { depth -= 1 } else if depth == 0 {
                if c == "." { break }
                outside.append(c)
            }
        }
        return outside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    func testEveryDocumentedKeyIsOnEveryKindOfRow() throws {
        let documented = try documentedKeys()
        XCTAssertEqual(documented, BatchOutput.jsonKeys, "the man page and the emitted keys agree")
        var rows: [JSONValue] = JournalStatus.allCases.filter(\.isFinal).flatMap { status in
            [BatchOutput.json(RowOutcome(line: 2, jid: "a@x", status: status)),
             BatchOutput.json(RowOutcome(line: 2, jid: "a@x", status: status, error: "e", profile: .pending(["nickname"]), note: "n")),
             BatchOutput.json(RowOutcome(line: 2, jid: "a@x", status: status, profile: .applied))]
        }
        rows.append(BatchOutput.json(BatchCommand.outcome(InvalidRow(line: 3, jidText: "bad", reason: "no"))))
        rows.append(BatchOutput.validJSON(line: 4, jid: "b@x"))
        for row in rows {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(row.compact.utf8)) as? [String: Any])
            XCTAssertEqual(Set(object.keys), Set(documented), row.compact)
        }
    }

    func testReportQuotesFieldsAndKeepsThemExact() throws {
        let entries = [
            JournalEntry(line: 3, jid: "b@x", status: .failed, error: "text, with \"quotes\""),
            JournalEntry(line: 2, jid: "a@x", status: .created, generatedPassword: "-secret", profile: "pending:nickname,avatar"),
            JournalEntry(line: 4, jid: "=cmd()", status: .invalid, error: "bad\nline"),
        ]
        let text = String(decoding: BatchReport.csv(entries, includePasswords: true), as: UTF8.self)
        XCTAssertEqual(text, "line,jid,status,error,profile,password,note\r\n"
            + "2,a@x,created,,pending: nickname avatar,-secret,\r\n"
            + "3,b@x,failed,\"text, with \"\"quotes\"\"\",,,\r\n"
            + "4,=cmd(),invalid,\"bad\nline\",,,\r\n")
        // The report reads back with the tool's own CSV reader.
        let records = try CSVReader.parse(Array(text.utf8))
        XCTAssertEqual(records.map(\.fields.count), [7, 7, 7, 7])
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

    /// Interrupted before the profiles were set: the accounts exist, and the summary says so.
    func testSummaryCountsRegisteredAccountsAsCreated() {
        let entries = [
            JournalEntry(line: 2, jid: "a", status: .registered, profile: "pending:nickname"),
            JournalEntry(line: 3, jid: "b", status: .created), JournalEntry(line: 4, jid: "c", status: .sent),
        ]
        let summary = BatchSummary(entries: entries, ranFor: 1, finishedThisRun: 2)
        XCTAssertEqual(summary.text, "3 rows: 2 created (1 without their profile yet), 1 not done; this run finished 2 in 1.0 s (2/s)")
        XCTAssertFalse(summary.allSucceeded)
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

    func testKnownPasswordsComeFromAnEarlierReportAndOddFilesAreRefused() throws {
        let directory = NSTemporaryDirectory() + "xt-report-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/r.csv"
        XCTAssertEqual(try BatchReport.knownPasswords(at: path), [:], "no file, nothing known")
        let old = [JournalEntry(line: 2, jid: "a@x", status: .created, generatedPassword: "pa"),
                   JournalEntry(line: 3, jid: "b@x", status: .exists)]
        try Data(BatchReport.csv(old, includePasswords: true)).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try BatchReport.knownPasswords(at: path), ["a@x": "pa"])
        try Data(BatchReport.csv(old, includePasswords: false)).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try BatchReport.knownPasswords(at: path), [:], "a report without passwords may be rewritten")
        try Data("password,who\nsecret,a@x\n".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try BatchReport.knownPasswords(at: path)) { error in
            XCTAssertEqual((error as? ToolFailure)?.code, .usage)
            XCTAssertTrue((error as? ToolFailure)?.message.contains("\(path) exists and is not a batch report") ?? false)
        }
        let checked: [CheckedRow] = [.valid(BatchRow(line: 2, jid: try JID("a@x"), password: nil, newPassword: nil, profile: ProfileColumns()))]
        XCTAssertNoThrow(try BatchCommand.refuseForeignPasswords(["a@x": "pa"], checked: checked, report: path))
        XCTAssertThrowsError(try BatchCommand.refuseForeignPasswords(["a@x": "pa", "z@x": "pz"], checked: checked, report: path)) { error in
            XCTAssertEqual((error as? ToolFailure)?.message,
                           "\(path) holds the passwords of 1 account this batch does not list (z@x); rewriting it would lose them: "
                           + "give another --report FILE, or move \(path) away first")
        }
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
