import XCTest
import XMPPBatch
import XMPPServices
import XMPPStanzas
import XMPPStorage
@testable import XMPPTools

/// A batch whose every row succeeded but whose report could not be written ends with status 1.
final class BatchVerdictTests: XCTestCase {
    func testAnUnwrittenReportIsNeverExitZero() throws {
        let entries = [JournalEntry(line: 2, jid: "a@x.org", status: .created)]
        let summary = BatchSummary(entries: entries, ranFor: 1, finishedThisRun: 1)
        XCTAssertTrue(summary.allSucceeded)
        let output = BatchOutput(program: "xmpp-register", json: false, quiet: true, showProgress: false)
        var verdict = BatchVerdict(end: .completed, fatal: nil, summary: summary, finished: true, journalPath: "/j", reportPath: "/r")
        XCTAssertNoThrow(try verdict.conclude(output: output))
        verdict.reportProblem = "cannot write the report: /r is a symbolic link"
        XCTAssertThrowsError(try verdict.conclude(output: output)) { error in
            let failure = error as? ToolFailure
            XCTAssertEqual(failure?.code, .failed)
            XCTAssertTrue(failure?.message.hasPrefix("cannot write the report: /r") ?? false, "\(error)")
        }
    }

    /// Issue 27 item 5: a roster that failed (a refused password) is named, and the others are not
    /// called done while a pair with it is one-sided; the run is not a success.
    func testAFailedRosterIsCountedAndTheOthersAreNotCalledDone() {
        let entries = [JournalEntry(line: 2, jid: "a@x.org", status: .exists, roster: "done"),
                       JournalEntry(line: 3, jid: "b@x.org", status: .exists, roster: "done"),
                       JournalEntry(line: 4, jid: "c@x.org", status: .exists, error: "roster not set: refused", roster: "failed")]
        let summary = BatchSummary(entries: entries, ranFor: 1, finishedThisRun: 0)
        XCTAssertFalse(summary.allSucceeded)
        XCTAssertTrue(summary.text.contains("2 rosters set, 1 roster failed (its pairs wait for a run that can log in as it)"), summary.text)
        XCTAssertFalse(summary.text.contains("rosters done"), summary.text)
        let clean = BatchSummary(entries: Array(entries.prefix(2)), ranFor: 1, finishedThisRun: 0)
        XCTAssertTrue(clean.text.contains("2 rosters done"), clean.text)
    }

    /// Issue 27 item 4: a batch stopped by a server closed to in-band registration names the
    /// batch's ways forward (not --resume), and whether the corrected run takes its journal over.
    func testAClosedServerNamesAdminAndInvite() {
        let answer = StanzaError(type: "modify", condition: .notAcceptable, text: "Registration on this server is through invitation only")
        let refused = RegistrationError.refused(.invitationOnly, domain: "school.example", answer: answer)
        let summary = BatchSummary(entries: [JournalEntry(line: 2, jid: "a@x.org", status: .pending)], ranFor: 1, finishedThisRun: 0)
        let output = BatchOutput(program: "xmpp-register", json: false, quiet: true, showProgress: false)
        var verdict = BatchVerdict(end: .completed, fatal: refused, summary: summary, finished: false, journalPath: "/j", reportPath: "/r")
        verdict.journalUntouched = true
        XCTAssertThrowsError(try verdict.conclude(output: output)) { error in
            let failure = error as? ToolFailure
            XCTAssertEqual(failure?.code, .registrationClosed)
            let text = failure?.message ?? ""
            XCTAssertTrue(text.contains("by invitation only; run the same batch again with --invite --report FILE"), text)
            XCTAssertTrue(text.contains("or with --admin as the server's administrator"), text)
            XCTAssertTrue(text.contains("that run takes this one's journal over"), text)
            XCTAssertFalse(text.contains("--resume"), text)
        }
        verdict.journalUntouched = false
        XCTAssertThrowsError(try verdict.conclude(output: output)) { error in
            XCTAssertFalse("\(error)".contains("takes this one's journal over"), "\(error)")
        }
        XCTAssertNil(BatchVerdict.closedRegistration(RegistrationError.refused(.throttled, domain: "x", answer: answer), untouched: true))
    }
}
