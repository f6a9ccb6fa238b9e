@testable import TextFormats
import XCTest

/// What spreadsheets write: semicolons (European Excel), Excel's sep= line, UTF-16 "Unicode
/// Text" (tab-separated), and rows that lost a field.
final class CSVTableTests: XCTestCase {
    private func table(_ text: String, delimiter: UInt8? = nil) throws -> CSVTable? {
        try CSVReader.table(Array(text.utf8), delimiter: delimiter)
    }

    private func utf16(_ text: String, bigEndian: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in text.utf16 {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        return bytes
    }

    func testACommaFileReadsAsBefore() throws {
        let t = try XCTUnwrap(try table("jid,password\na@x,\"p;w\"\n"))
        XCTAssertEqual(t.delimiter, ",")
        XCTAssertEqual(t.header.fields, ["jid", "password"])
        XCTAssertEqual(t.rows, [CSVRecord(line: 2, fields: ["a@x", "p;w"])])
    }

    func testASemicolonHeaderMakesASemicolonFile() throws {
        let t = try XCTUnwrap(try table("jid;password;fullname\r\na@x;pw;\"Müller, Anna\"\r\n"))
        XCTAssertEqual(t.delimiter, ";")
        XCTAssertEqual(t.rows.first?.fields, ["a@x", "pw", "Müller, Anna"])
    }

    func testADelimiterInsideAQuotedHeaderFieldDoesNotCount() throws {
        let t = try XCTUnwrap(try table("\"jid;a;b;c\",password\na@x,pw\n"))
        XCTAssertEqual(t.delimiter, ",")
    }

    func testExcelsSepLineNamesTheDelimiterAndIsSkipped() throws {
        let t = try XCTUnwrap(try table("sep=;\r\njid;password\r\na@x;pw\r\n"))
        XCTAssertEqual(t.delimiter, ";")
        XCTAssertEqual(t.header, CSVRecord(line: 2, fields: ["jid", "password"]))
        XCTAssertEqual(t.rows, [CSVRecord(line: 3, fields: ["a@x", "pw"])], "line numbers still count the sep= line")
    }

    func testAGivenDelimiterWins() throws {
        let t = try XCTUnwrap(try table("jid,name\na@x,b;c\n", delimiter: UInt8(ascii: ";")))
        XCTAssertEqual(t.header.fields, ["jid,name"])
    }

    func testUTF16UnicodeTextIsReadAsTabSeparated() throws {
        for bigEndian in [false, true] {
            let bytes = utf16("jid\tfullname\r\nzoë@x\tZoë 😀\r\n", bigEndian: bigEndian)
            let t = try XCTUnwrap(try CSVReader.table(bytes))
            XCTAssertEqual(t.delimiter, "\t")
            XCTAssertEqual(t.rows.first?.fields, ["zoë@x", "Zoë 😀"])
        }
    }

    func testBrokenUTF16AndUTF16WithoutABOMAreNamed() {
        XCTAssertThrowsError(try CSVReader.table([0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00])) { error in
            XCTAssertEqual(error as? CSVError, .invalidUTF16)
        }
        XCTAssertThrowsError(try CSVReader.table([0xFF, 0xFE, 0x41])) { XCTAssertEqual($0 as? CSVError, .invalidUTF16) }
        XCTAssertThrowsError(try CSVReader.table(Array("j\0i\0d\0".utf8))) { error in
            XCTAssertTrue("\(error)".contains("UTF-16 without a byte-order mark"), "\(error)")
        }
    }

    func testARowWithFewerFieldsThanTheHeaderNamesItsLine() throws {
        let t = try XCTUnwrap(try table("jid,password,fullname\na@x,pw,A\nb@x,pw\nc@x,pw,C,extra\n"))
        let error = try XCTUnwrap(t.shortRow)
        XCTAssertEqual(error, .shortRow(line: 3, fields: 2, header: 3))
        XCTAssertEqual("\(error)", "line 3: 2 fields where the header has 3 (a missing delimiter, or a line break outside quotes?)")
        XCTAssertNil(try XCTUnwrap(try table("jid,password\na@x,pw\n")).shortRow)
    }

    func testAnEmptyFileIsNoTable() throws {
        XCTAssertNil(try table(""))
        XCTAssertNil(try table("\n\n"))
    }
}
