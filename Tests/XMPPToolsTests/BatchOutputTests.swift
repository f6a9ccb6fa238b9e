import TextFormats
import Foundation
import XCTest
import XMPPStanzas
import XMPPBatch
import XMPPStorage
@testable import XMPPTools

/// JSON Lines, the progress bar and the summary.
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
        rows.append(BatchOutput.json(RowOutcome(invalid: InvalidRow(line: 3, jidText: "bad", reason: "no"))))
        rows.append(BatchOutput.validJSON(line: 4, jid: "b@x"))
        for row in rows {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(row.compact.utf8)) as? [String: Any])
            XCTAssertEqual(Set(object.keys), Set(documented), row.compact)
        }
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
        // Interrupted in the roster passes of a run that found the rows done: what it did is the rosters.
        let rostered = [JournalEntry(line: 2, jid: "a@x.org", status: .created, roster: "done"),
                        JournalEntry(line: 3, jid: "b@x.org", status: .created, roster: "pending")]
        XCTAssertEqual(BatchSummary(entries: rostered, ranFor: 4, finishedThisRun: 0, rostersThisRun: 1).text,
                       "2 rows: 2 created, 1 roster done, 1 roster not done; this run finished 1 roster in 4.0 s")
        XCTAssertEqual(BatchSummary(entries: rostered, ranFor: 1, finishedThisRun: 2, rostersThisRun: 1).text,
                       "2 rows: 2 created, 1 roster done, 1 roster not done; this run finished 2 rows and 1 roster in 1.0 s (2/s)")
        XCTAssertFalse(summary.allSucceeded)
    }
}
