import TextFormats
import XCTest
@testable import XMPPBatch

/// A spreadsheet's own spellings of the columns ("Full name", "E-mail", "Class") are the
/// columns; a near miss gets a "did you mean"; rows a spreadsheet exports empty are no rows.
final class BatchHeaderSpellingTests: XCTestCase {
    private func columns(_ header: String) throws -> BatchColumns {
        var configuration = BatchConfiguration()
        configuration.domain = "school.example"
        let table = try XCTUnwrap(try CSVReader.table(Array((header + "\n").utf8)))
        return try BatchColumns(header: table.header, configuration: configuration)
    }

    func testSpreadsheetSpellingsAreTheColumns() throws {
        let found = try columns("Username;Full name;E-mail;Class;Password;Nick;Photo;Contact")
        XCTAssertEqual(found.index["username"], 0)
        XCTAssertEqual(found.index["fullname"], 1)
        XCTAssertEqual(found.index["email"], 2)
        XCTAssertEqual(found.index["groups"], 3)
        XCTAssertEqual(found.index["password"], 4)
        XCTAssertEqual(found.index["nickname"], 5)
        XCTAssertEqual(found.index["avatar"], 6)
        XCTAssertEqual(found.index["contacts"], 7)
        XCTAssertEqual(found.unknown, [])
        XCTAssertEqual(try columns("user_name,NEW-PASSWORD,password").index["new_password"], 1)
    }

    func testANearMissIsNamedWithTheColumnItMeant() throws {
        let found = try columns("username,password,Fulname,nicknme,Favourite colour")
        XCTAssertEqual(found.unknown, ["fulname", "nicknme", "favourite colour"])
        XCTAssertEqual(found.suggestions["fulname"], "fullname")
        XCTAssertEqual(found.suggestions["nicknme"], "nickname")
        XCTAssertNil(found.suggestions["favourite colour"])
    }

    func testTwoSpellingsOfOneColumnAreADuplicate() {
        XCTAssertThrowsError(try columns("username,password,email,E-mail")) { error in
            XCTAssertTrue("\(error)".contains("'email' appears twice"), "\(error)")
            XCTAssertTrue("\(error)".contains("'e-mail' is the email column"), "\(error)")
        }
    }

    func testEmptyRowsOfASpreadsheetAreSkipped() throws {
        var configuration = BatchConfiguration()
        configuration.domain = "school.example"
        let csv = "username;password;fullname\r\nann;pw-ann-1;Ann\r\n;;\r\n ; ;\r\nbob;pw-bob-1;Bob\r\n"
        let sheet = try BatchSheet(input: Array(csv.utf8), name: "x.csv", configuration: configuration, baseDirectory: "/")
        XCTAssertEqual(sheet.rows.count, 2)
        XCTAssertEqual(sheet.invalid.map(\.reason), [])
    }

    /// Generated passwords are read off paper: no O/0, l/I/1.
    func testGeneratedPasswordsHaveNoLookAlikes() {
        for _ in 0..<200 {
            let password = BatchInput.generatePassword()
            XCTAssertEqual(password.count, 24)
            XCTAssertFalse(password.contains { "O0lI1".contains($0) }, password)
        }
    }
}
