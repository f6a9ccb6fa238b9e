import TextFormats
import Foundation
import XCTest
import Glibc
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
            + "4,'=cmd(),invalid,bad\\nline,,,\r\n", "no cell starts a spreadsheet formula (OWASP), no line break is raw")
        // The report reads back with the tool's own CSV reader.
        let records = try CSVReader.parse(Array(text.utf8))
        XCTAssertEqual(records.map(\.fields.count), [7, 7, 7, 7])
        XCTAssertEqual(records[2].fields[3], "text, with \"quotes\"")
    }

    func testAPasswordThatStartsLikeAFormulaIsCarriedOverExactly() throws {
        let directory = try scratchDirectory("report")
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
        let directory = try scratchDirectory("report")
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

    /// Issue 27 item 5: passwd --admin --report puts the administrator's new password into the
    /// account's row (the other rows and fields exact, formula-like text kept inert) and into a
    /// journal that still holds the row's password; an unusable report is refused first.
    func testANewPasswordReplacesTheRowsPasswordInTheReportAndItsJournal() throws {
        let directory = try scratchDirectory("report")
        XCTAssertEqual(chmod(directory, 0o700), 0)
        let path = directory + "/pw.csv"
        let entries = [JournalEntry(line: 2, jid: "a@x", status: .created, error: "=cmd", generatedPassword: "old-a"),
                       JournalEntry(line: 3, jid: "b@x", status: .created, generatedPassword: "-b, \"quoted\"")]
        try SecureFile.writeSecret(BatchReport.csv(entries, includePasswords: true), to: path)
        do {
            let journal = try BatchJournal(path: path + ".journal", identity: .batch(mode: .create, domain: nil, shard: nil, options: [], inputSHA256: "id", directoryMap: nil), start: .fresh)
            try journal.insert(entries)
        }
        try ReportPassword.replace(report: path, jid: "a@x", password: "@new, one")
        XCTAssertEqual(try BatchReport.knownPasswords(at: path), ["a@x": "@new, one", "b@x": "-b, \"quoted\""])
        var expected = entries
        expected[0].generatedPassword = "@new, one"
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8),
                       String(decoding: BatchReport.csv(expected, includePasswords: true), as: UTF8.self), "every other field exact")
        XCTAssertEqual(try BatchJournal(path: path + ".journal", identity: .batch(mode: .create, domain: nil, shard: nil, options: [], inputSHA256: "id", directoryMap: nil), start: .resume).entries().map(\.generatedPassword),
                       ["@new, one", "-b, \"quoted\""])
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)

        XCTAssertThrowsError(try ReportPassword.check(report: path, jid: "z@x")) { error in
            XCTAssertEqual("\(error)", "\(path) cannot take the new password: it has no row for z@x")
        }
        try SecureFile.writeSecret(BatchReport.csv(entries, includePasswords: false), to: path)
        XCTAssertThrowsError(try ReportPassword.check(report: path, jid: "a@x")) { error in
            XCTAssertTrue("\(error)".contains("it has no password column"), "\(error)")
        }
        XCTAssertThrowsError(try ReportPassword.check(report: directory + "/none.csv", jid: "a@x"))
    }

    /// Issue 27 item 7: the report carries the row's own name and groups, and --report-by-group
    /// writes one 0600 file per group (a row in two groups in both, rows in none apart) in a
    /// 0700 directory, with file names no group can turn into a path.
    /// Issue 38: a semicolon-separated export with a BOM (Excel where the decimal mark is a comma)
    /// gets its class files back the same way, so the spreadsheet shows their accents; the
    /// handout reads such a file and keeps its dialect when it marks it.
    func testTheReportSplitByGroupIsInTheInputsDialect() throws {
        let directory = try scratchDirectory("dialect")
        let csv: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("username;fullname;groups\r\nann;Ann Ärger;Class 5A\r\nbob;Bob, Jr.;Class 5A\r\n".utf8)
        var configuration = BatchConfiguration()
        configuration.domain = "school.example"
        configuration.generatePasswords = true
        let sheet = try BatchSheet(input: csv, name: "x.csv", configuration: configuration, baseDirectory: directory)
        XCTAssertEqual(sheet.dialect.delimiter, UInt8(ascii: ";"))
        let people = ReportPeople(rows: sheet.rows, columns: sheet.columns)
        let entries = [JournalEntry(line: 2, jid: "ann@school.example", status: .created, generatedPassword: "pa"),
                       JournalEntry(line: 3, jid: "bob@school.example", status: .created, generatedPassword: "pb")]
        try GroupReports.write(entries, people: people, includePasswords: true, invites: false, dialect: sheet.dialect, to: directory + "/split")
        let path = directory + "/split/group-Class 5A.csv"
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(Array(bytes.prefix(3)), [0xEF, 0xBB, 0xBF], "the BOM that makes Excel read UTF-8")
        XCTAssertEqual(String(decoding: bytes.dropFirst(3), as: UTF8.self),
                       "line;jid;status;error;profile;password;note;name;groups\r\n"
                       + "2;ann@school.example;created;;;pa;;Ann Ärger;Class 5A\r\n"
                       + "3;bob@school.example;created;;;pb;;\"Bob, Jr.\";Class 5A\r\n")
        let handout = try HandoutReport(path: path)
        XCTAssertEqual(handout.rows.map(\.name), ["Ann Ärger", "Bob, Jr."])
        try handout.markHandedOut([handout.rows[0]], at: "2026-12-04T18:00:00Z")
        let marked = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(String(decoding: marked, as: UTF8.self), "\u{FEFF}line;jid;status;error;profile;password;note;name;groups;handed_out\r\n"
                       + "2;ann@school.example;created;;;pa;;Ann Ärger;Class 5A;2026-12-04T18:00:00Z\r\n"
                       + "3;bob@school.example;created;;;pb;;\"Bob, Jr.\";Class 5A;\r\n")
    }

    func testTheReportSplitByGroupHasOneFilePerGroupWithNames() throws {
        let directory = try scratchDirectory("groups")
        let csv = "username,fullname,groups\nann,Ann Ärger,Class 5A;Teachers\nbob,=Bob,5/A\ncy,,\n"
        var configuration = BatchConfiguration()
        configuration.domain = "school.example"
        configuration.generatePasswords = true
        let sheet = try BatchSheet(input: Array(csv.utf8), name: "x.csv", configuration: configuration, baseDirectory: directory)
        let people = ReportPeople(rows: sheet.rows, columns: sheet.columns)
        let entries = [JournalEntry(line: 2, jid: "ann@school.example", status: .created, generatedPassword: "pa"),
                       JournalEntry(line: 3, jid: "bob@school.example", status: .created, generatedPassword: "pb"),
                       JournalEntry(line: 4, jid: "cy@school.example", status: .created, generatedPassword: "pc")]
        let report = String(decoding: BatchReport.csv(entries, includePasswords: true, people: people), as: UTF8.self)
        XCTAssertEqual(report, "line,jid,status,error,profile,password,note,name,groups\r\n"
                       + "2,ann@school.example,created,,,pa,,Ann Ärger,Class 5A;Teachers\r\n"
                       + "3,bob@school.example,created,,,pb,,'=Bob,5/A\r\n"
                       + "4,cy@school.example,created,,,pc,,,\r\n")

        let split = directory + "/slips"
        try GroupReports.write(entries, people: people, includePasswords: true, invites: false, to: split)
        let files = try FileManager.default.contentsOfDirectory(atPath: split).sorted()
        XCTAssertEqual(files, ["group-5%2FA.csv", "group-Class 5A.csv", "group-Teachers.csv", "ungrouped.csv"])
        let classFile = try String(contentsOfFile: split + "/group-Class 5A.csv", encoding: .utf8)
        XCTAssertEqual(classFile.split(separator: "\r\n").count, 2)
        XCTAssertTrue(classFile.contains("ann@school.example,created,,,pa,,Ann Ärger"), classFile)
        XCTAssertTrue(try String(contentsOfFile: split + "/ungrouped.csv", encoding: .utf8).contains("cy@school.example"))
        for file in files {
            let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: split + "/" + file)[.posixPermissions] as? Int)
            XCTAssertEqual(mode & 0o777, 0o600, file)
        }
        let dirMode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: split)[.posixPermissions] as? Int)
        XCTAssertEqual(dirMode & 0o777, 0o700)
        XCTAssertEqual(chmod(split, 0o777), 0)
        XCTAssertThrowsError(try GroupReports.write(entries, people: people, includePasswords: true, invites: false, to: split),
                             "a directory others can write in is refused")

        XCTAssertEqual(GroupReports.fileName(group: "../etc"), "group-..%2Fetc.csv")
        XCTAssertEqual(GroupReports.fileName(group: "-rf 100% $(x)"), "group--rf 100%25 %24(x).csv")
        XCTAssertEqual(GroupReports.fileName(group: "a\u{7}b"), "group-a%07b.csv")
        XCTAssertNotEqual(GroupReports.fileName(group: "5%2FA"), GroupReports.fileName(group: "5/A"))
        let long = GroupReports.fileName(group: String(repeating: "é", count: 300))
        XCTAssertLessThanOrEqual(long.utf8.count, 255)
        XCTAssertTrue(long.hasSuffix(".csv"))
    }
}

