import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
import XMPPStanzas
import XMPPStorage
@testable import XMPPBatch

/// sync's own report columns: the day each account was created and its invite, carried from the
/// earlier report while the account keeps the password they were written beside.
final class SyncReportColumnsTests: XCTestCase {
    private let invite = InviteSecret(uri: "xmpp:a@x?register;preauth=T0k", landingPage: "https://x/i/T0k")

    func testADateAndAnInviteStayWithTheirPasswordAndGoWithIt() throws {
        let path = try scratchDirectory("sync-report") + "/pw.csv"
        // The first sync: a and b created today; a got an invite.
        var first = SyncReportColumns(report: path, today: "2026-09-01")
        first.includeInvites()
        first.issued(invite, expires: "2026-09-02T08:00:00Z", jid: "a@x", password: "pa")
        let created = [JournalEntry(line: 2, jid: "a@x", status: .created, generatedPassword: "pa"),
                       JournalEntry(line: 3, jid: "b@x", status: .created, generatedPassword: "pb")]
        let text = String(decoding: BatchReport.csv(created, includePasswords: true, sync: first), as: UTF8.self)
        XCTAssertEqual(text, "line,jid,status,error,profile,password,note,invite,landing_page,invite_expires,created\r\n"
            + "2,a@x,created,,,pa,,xmpp:a@x?register;preauth=T0k,https://x/i/T0k,2026-09-02T08:00:00Z,2026-09-01\r\n"
            + "3,b@x,created,,,pb,,,,,2026-09-01\r\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, 0o600), 0)

        // Weeks later: a and b exist with the same passwords, c is new, b was created again.
        let later = SyncReportColumns(report: path, today: "2026-10-15")
        XCTAssertTrue(later.hasInvite(jid: "a@x", password: "pa"))
        XCTAssertFalse(later.hasInvite(jid: "a@x", password: "other"))
        let rows = [JournalEntry(line: 2, jid: "a@x", status: .exists, generatedPassword: "pa"),
                    JournalEntry(line: 3, jid: "b@x", status: .created, generatedPassword: "pb2"),
                    JournalEntry(line: 4, jid: "c@x", status: .created, generatedPassword: "pc"),
                    JournalEntry(line: 5, jid: "d@x", status: .exists)]
        let again = String(decoding: BatchReport.csv(rows, includePasswords: true, sync: later), as: UTF8.self)
        XCTAssertEqual(again, "line,jid,status,error,profile,password,note,invite,landing_page,invite_expires,created\r\n"
            + "2,a@x,exists,,,pa,,xmpp:a@x?register;preauth=T0k,https://x/i/T0k,2026-09-02T08:00:00Z,2026-09-01\r\n"
            + "3,b@x,created,,,pb2,,,,,2026-10-15\r\n"
            + "4,c@x,created,,,pc,,,,,2026-10-15\r\n"
            + "5,d@x,exists,,,,,,,,\r\n", "a new password is a new account for the date and drops the old invite; an account sync did not make has none")
        XCTAssertEqual(later.shown(jid: "a@x", password: "pa"), invite.uri, "the slip shows the invite, so handed_out goes with it")
        XCTAssertEqual(later.shown(jid: "b@x", password: "pb2"), "pb2")
    }

    func testABatchReportHasNoneOfThem() {
        let text = String(decoding: BatchReport.csv([JournalEntry(line: 2, jid: "a@x", status: .created, generatedPassword: "pa")],
                                                    includePasswords: true), as: UTF8.self)
        XCTAssertEqual(text, "line,jid,status,error,profile,password,note\r\n2,a@x,created,,,pa,\r\n")
    }

    func testOnlyAnInviteForTheAccountItselfIsTaken() throws {
        let account = try JID("pupil@school.example")
        XCTAssertNotNil(InviteSecret(checking: "xmpp:pupil@school.example?register;preauth=T0k", landingPage: nil, account: account))
        XCTAssertNil(InviteSecret(checking: "xmpp:other@school.example?register;preauth=T0k", landingPage: nil, account: account),
                     "a reset invite for another account")
        XCTAssertNil(InviteSecret(checking: "xmpp:school.example?register;preauth=T0k", landingPage: nil, account: account),
                     "an invite that lets the person pick any name")
    }
}
