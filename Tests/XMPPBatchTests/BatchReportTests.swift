import TextFormats
import Foundation
import XCTest
import XMPPStanzas
import XMPPStorage
@testable import XMPPBatch

/// The report CSV, and the passwords an earlier report carries into a run.
final class BatchReportTests: XCTestCase {
    func testReportQuotesFieldsAndKeepsThemExact() throws {
        let entries = [
            JournalEntry(line: 3, jid: "b@x", status: .failed, error: "text, with \"quotes\""),
            JournalEntry(line: 2, jid: "a@x", status: .created, generatedPassword: "-secret", profile: "pending:nickname,avatar"),
            JournalEntry(line: 4, jid: "=cmd()", status: .invalid, error: "bad\nline"),
        ]
        let text = String(decoding: BatchReport.csv(entries, includePasswords: true), as: UTF8.self)
        XCTAssertEqual(text, "line,jid,status,error,profile,password,note\r\n"
            + "2,a@x,created,,pending: nickname avatar,'-secret,\r\n"
            + "3,b@x,failed,\"text, with \"\"quotes\"\"\",,,\r\n"
            + "4,'=cmd(),invalid,\"bad\nline\",,,\r\n", "no cell starts a spreadsheet formula (OWASP)")
        // The report reads back with the tool's own CSV reader.
        let records = try CSVReader.parse(Array(text.utf8))
        XCTAssertEqual(records.map(\.fields.count), [7, 7, 7, 7])
        XCTAssertEqual(records[2].fields[3], "text, with \"quotes\"")
    }

    func testAPasswordThatStartsLikeAFormulaIsCarriedOverExactly() throws {
        let directory = NSTemporaryDirectory() + "xt-report-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/r.csv"
        let old = [JournalEntry(line: 2, jid: "a@x", status: .created, generatedPassword: "-secret=1"),
                   JournalEntry(line: 3, jid: "b@x", status: .created, generatedPassword: "'=quoted")]
        try Data(BatchReport.csv(old, includePasswords: true)).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, 0o600), 0)
        XCTAssertEqual(try BatchReport.knownPasswords(at: path), ["a@x": "-secret=1", "b@x": "'=quoted"])
    }

    func testOnlyAnXMPPInviteOfTheRowsDomainReachesTheReport() {
        XCTAssertEqual(InviteSecret(checking: "xmpp:school.example?register;preauth=T0k", landingPage: "https://school.example/invite?T0k",
                                    domain: "school.example"),
                       InviteSecret(uri: "xmpp:school.example?register;preauth=T0k", landingPage: "https://school.example/invite?T0k"))
        XCTAssertNil(InviteSecret(checking: "=HYPERLINK(\"http://evil\")", landingPage: nil, domain: "school.example"))
        XCTAssertNil(InviteSecret(checking: "https://school.example/?register;preauth=T0k", landingPage: nil, domain: "school.example"))
        XCTAssertNil(InviteSecret(checking: "xmpp:evil.example?register;preauth=T0k", landingPage: nil, domain: "school.example"),
                     "an invite to another server")
        XCTAssertNil(InviteSecret(checking: "xmpp:school.example?roster;preauth=T0k", landingPage: nil, domain: "school.example"),
                     "a contact invite that does not allow registering")
        XCTAssertEqual(InviteSecret(checking: "xmpp:school.example?register;preauth=T0k", landingPage: "javascript:alert(1)",
                                    domain: "school.example")?.landingPage, nil, "a landing page that is no web page is left out")
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
            XCTAssertEqual(error as? BatchError, .notAReport(path: path, reason: "no jid column"))
            XCTAssertTrue((error as? BatchError)?.description.contains("\(path) exists and is not a batch report") ?? false)
        }
        let checked: [CheckedRow] = [.valid(BatchRow(line: 2, jid: try JID("a@x"), password: nil, newPassword: nil, profile: ProfileColumns()))]
        XCTAssertEqual(BatchReport.unlisted(["a@x": "pa"], rows: checked), [:])
        XCTAssertEqual(BatchReport.unlisted(["a@x": "pa", "z@x": "pz"], rows: checked), ["z@x": "pz"],
                       "a removed row's password is carried, not refused")
        // The carried password is written again, as a row of its own, and read back.
        let entries = [JournalEntry(line: 2, jid: "a@x", status: .exists, generatedPassword: "pa", passwordKept: true)]
        try Data(BatchReport.csv(entries, includePasswords: true, carried: ["z@x": "pz"])).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try BatchReport.knownPasswords(at: path), ["a@x": "pa", "z@x": "pz"])
        XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).contains(",z@x,kept,"))
    }
}
