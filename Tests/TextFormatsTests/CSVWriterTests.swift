@testable import TextFormats
import XCTest

/// What `CSVWriter` quotes, and that `CSVReader` reads every record back to the same fields.
final class CSVWriterTests: XCTestCase {
    func testQuotesOnlyWhatNeedsIt() {
        let written: [(field: String, quoted: String)] = [
            ("plain@example.org", "plain@example.org"), ("", ""), ("a,b", "\"a,b\""),
            ("say \"hi\"", "\"say \"\"hi\"\"\""), (" padded ", "\" padded \""),
        ]
        for (field, quoted) in written { XCTAssertEqual(CSVWriter.quote(field), quoted, field) }
        XCTAssertEqual(CSVWriter.record(["a", "b"]), "a,b\r\n")
        XCTAssertEqual(CSVWriter.record(["a"], lineEnd: "\n"), "a\n")
    }

    func testEdgesThatCharacterComparisonMisses() {
        // "\r\n" is one Character, equal to neither "\r" nor "\n": the old writers left it bare.
        XCTAssertEqual(CSVWriter.quote("two\r\nlines"), "\"two\r\nlines\"")
        // A quote followed by a combining mark is one Character too; its quote must still double.
        XCTAssertEqual(CSVWriter.quote("\"\u{301}"), "\"\"\"\u{301}\"")
    }

    func testFormulaStartsAreNeutralisedAsOWASPSays() throws {
        let fields = ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "\u{FF1D}1+1", "'=x", "''", "'Tis", "a=b", ""]
        XCTAssertEqual(CSVWriter.record(fields),
                       "'=1+1,'+1,'-1,'@SUM(A1),'\tx,\"'\rx\",'\u{FF1D}1+1,''=x,'','Tis,a=b,\r\n")
        let read = try CSVReader.parse(Array(CSVWriter.record(fields).utf8))[0].fields
        XCTAssertEqual(read.map(CSVWriter.restored), fields, "the tools' own readers get every field back")
    }

    func testRecordsReadBackUnchanged() throws {
        let records: [[String]] = [
            ["\u{FEFF}starts with a BOM", "x"],
            [""],
            ["", ""],
            ["two\r\nlines", "lone\rcr", "lf\nonly"],
            ["\"\u{301}quoted mark", "O\"Brien", "müller", "日本"],
            [" ", "trailing ", "comma,inside"],
        ]
        let text = records.map { CSVWriter.record($0) }.joined()
        XCTAssertEqual(try CSVReader.parse(Array(text.utf8)).map { $0.fields.map(CSVWriter.restored) }, records)
    }
}
