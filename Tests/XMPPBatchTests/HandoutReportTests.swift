import Foundation
import TextFormats
import XCTest
import Glibc
import XMPPStorage
@testable import XMPPBatch

/// The report as `xmpp-register handout` reads and marks it, and the marks later runs keep.
final class HandoutReportTests: XCTestCase {
    private func report(_ text: String) throws -> String {
        let path = try scratchDirectory("handout") + "/r.csv"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, 0o600), 0)
        return path
    }

    func testRowsWithASecretByGroupAndNotYetHandedOut() throws {
        let path = try report("line,jid,status,error,profile,password,note,name,groups,handed_out\r\n"
            + "2,a@x,created,,,pa,,Anna,5A;Choir,\r\n"
            + "3,b@x,created,,,pb,,Ben,5B,2026-01-01T08:00:00Z\r\n"
            + "4,c@x,exists,,,,,Cleo,5B,\r\n"
            + "5,f@x,failed,refused,,pf,,Fay,5B,\r\n"
            + "6,s@x,sent,,,ps,,Sam,5B,\r\n"
            + ",k@x,kept,,,'=pk,not in this CSV,,,\r\n")
        let handout = try HandoutReport(path: path)
        XCTAssertEqual(handout.rows.map(\.jid), ["a@x", "b@x", "k@x"])
        XCTAssertEqual(handout.withoutSlip, 3, "no password; a failed row's and an unfinished row's passwords may not log in")
        XCTAssertEqual(handout.rows[2].secret, .password("=pk"), "fields are restored from the report's formula guard")
        XCTAssertNil(handout.rows[2].line)
        XCTAssertEqual(handout.groups, ["5A", "Choir", "5B"])
        XCTAssertEqual(handout.selection(group: nil, all: false).map(\.jid), ["a@x", "k@x"])
        XCTAssertEqual(handout.selection(group: nil, all: true).map(\.jid), ["a@x", "b@x", "k@x"])
        XCTAssertEqual(handout.selection(group: "Choir", all: false).map(\.jid), ["a@x"])
        XCTAssertEqual(handout.selection(group: "5B", all: false).map(\.jid), [])
        XCTAssertEqual(handout.selection(group: "5B", all: true).map(\.jid), ["b@x"])
    }

    func testMarkingAddsTheColumnLastAndChangesNothingElse() throws {
        let original = "line,jid,status,error,profile,invite,landing_page,note,name\r\n"
            + "2,a@x,invited,,,xmpp:x?register;preauth=A,https://x/i/A,,\"Müller, Anna\"\r\n"
            + "3,b@x,failed,\"text, with \"\"quotes\"\"\",,,,,Ben\r\n"
        let path = try report(original)
        let handout = try HandoutReport(path: path)
        XCTAssertEqual(handout.rows.map(\.secret), [.invite("xmpp:x?register;preauth=A")])
        XCTAssertFalse(handout.hasGroups)
        try handout.markHandedOut(handout.rows, at: "2026-12-04T18:00:00Z")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8),
                       "line,jid,status,error,profile,invite,landing_page,note,name,handed_out\r\n"
                       + "2,a@x,invited,,,xmpp:x?register;preauth=A,https://x/i/A,,\"Müller, Anna\",2026-12-04T18:00:00Z\r\n"
                       + "3,b@x,failed,\"text, with \"\"quotes\"\"\",,,,,Ben,\r\n")
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        XCTAssertEqual(try HandoutReport(path: path).selection(group: nil, all: false), [], "marked rows are not printed again")
    }

    func testReportsWithNothingToHandOutAreRefused() throws {
        let path = try report("line,jid,status,error,profile,note\r\n2,a@x,created,,,\r\n")
        XCTAssertThrowsError(try HandoutReport(path: path)) { error in
            XCTAssertTrue("\(error)".contains("no password or invite column"), "\(error)")
        }
        XCTAssertThrowsError(try HandoutReport(path: path + ".missing"))
        XCTAssertEqual(chmod(path, 0o666), 0)
        XCTAssertThrowsError(try HandoutReport(path: path), "a report others can write is not believed")
    }

    func testStampsOutliveARewriteWhileTheSecretIsTheSame() throws {
        let path = try report("line,jid,status,error,profile,password,note,handed_out\r\n"
            + "2,a@x,created,,,pa,,2026-01-01T08:00:00Z\r\n"
            + "3,b@x,created,,,pb,,2026-01-01T08:00:00Z\r\n"
            + ",z@x,kept,,,pz,not in this CSV,2026-01-02T08:00:00Z\r\n")
        let stamps = HandoutStamps(report: path)
        let entries = [JournalEntry(line: 2, jid: "a@x", status: .exists, generatedPassword: "pa", passwordKept: true),
                       JournalEntry(line: 3, jid: "b@x", status: .created, generatedPassword: "pb-new"),
                       JournalEntry(line: 4, jid: "c@x", status: .created, generatedPassword: "pc")]
        let text = String(decoding: BatchReport.csv(entries, includePasswords: true, carried: ["z@x": "pz"], stamps: stamps), as: UTF8.self)
        XCTAssertEqual(text, "line,jid,status,error,profile,password,note,handed_out\r\n"
            + "2,a@x,exists,,,pa,,2026-01-01T08:00:00Z\r\n"
            + "3,b@x,created,,,pb-new,,\r\n"
            + "4,c@x,created,,,pc,,\r\n"
            + ",z@x,kept,,,pz,not in this CSV: its password is kept from the earlier report,2026-01-02T08:00:00Z\r\n",
            "a row made again with a new password needs a new slip")
        XCTAssertEqual(String(decoding: BatchReport.csv(entries, includePasswords: true), as: UTF8.self).components(separatedBy: "\r\n")[0],
                       "line,jid,status,error,profile,password,note", "no column until a handout made one")
        let invites = [JournalEntry(line: 2, jid: "a@x", status: .invited, generatedPassword: "xmpp:x?register;preauth=A\thttps://x/A")]
        let invitePath = try report("line,jid,status,error,profile,invite,landing_page,note,handed_out\r\n"
            + "2,a@x,invited,,,xmpp:x?register;preauth=A,https://x/A,,2026-01-01T08:00:00Z\r\n")
        XCTAssertTrue(String(decoding: BatchReport.csv(invites, includePasswords: true, invites: true, stamps: HandoutStamps(report: invitePath)),
                             as: UTF8.self).hasSuffix(",2026-01-01T08:00:00Z\r\n"), "an invite's stamp is kept with its URI")
    }

    func testAPasswordChangedThroughTheReportNeedsANewSlip() throws {
        let path = try report("line,jid,status,error,profile,password,note,handed_out\r\n"
            + "2,a@x,created,,,pa,,2026-01-01T08:00:00Z\r\n"
            + "3,b@x,created,,,pb,,2026-01-01T08:00:00Z\r\n")
        XCTAssertEqual(chmod(BatchReport.directory(of: path), 0o700), 0)
        try ReportPassword.replace(report: path, jid: "a@x", password: "new")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "line,jid,status,error,profile,password,note,handed_out\r\n"
            + "2,a@x,created,,,new,,\r\n" + "3,b@x,created,,,pb,,2026-01-01T08:00:00Z\r\n")
        XCTAssertEqual(try HandoutReport(path: path).selection(group: nil, all: false).map(\.jid), ["a@x"])
    }
}
