import XCTest
@testable import TextFormats

/// A spreadsheet's CSV dialect, found as CSVReader.table reads the file, and our CSV written in it.
final class CSVDialectTests: XCTestCase {
    func testTheDialectIsWhatTheReaderSkipsAndChooses() {
        XCTAssertEqual(CSVDialect(of: Array("jid,password\r\na@x,p\r\n".utf8)), .rfc4180)
        var excel = CSVDialect()
        excel.delimiter = UInt8(ascii: ";")
        excel.byteOrderMark = true
        XCTAssertEqual(CSVDialect(of: [0xEF, 0xBB, 0xBF] + Array("jid;\"a,b\";groups\r\na@x;1;5A\r\n".utf8)), excel)
        var unix = CSVDialect()
        unix.lineEnd = "\n"
        XCTAssertEqual(CSVDialect(of: Array("\"a\nb\",jid\nx,y\n".utf8)), unix, "a line break inside quotes is not the line end")
        var separated = CSVDialect()
        separated.delimiter = UInt8(ascii: ";")
        separated.separatorLine = true
        XCTAssertEqual(CSVDialect(of: Array("sep=;\r\njid,a;b\r\n".utf8)), separated)
        var unicodeText = CSVDialect()
        unicodeText.delimiter = 0x09
        unicodeText.encoding = .utf16LittleEndian
        XCTAssertEqual(CSVDialect(of: [0xFF, 0xFE] + "jid\tname\r\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), unicodeText)
    }

    func testOurCSVReadsBackTheSameInEveryDialect() throws {
        let ours = Array((CSVWriter.record(["line", "jid", "name", "groups"]) + CSVWriter.record(["2", "a@x", "Zoë; \"Z\", Å", "5A;Choir"])
                          + CSVWriter.record(["3", "b@x", "'=1+1", "multi\nline"]) + CSVWriter.record([""])).utf8)
        XCTAssertEqual(CSVDialect.rfc4180.rewrite(ours), ours, "the RFC 4180 dialect changes nothing")
        let expected = try CSVReader.parse(ours).map(\.fields)
        for (delimiter, encoding, bom, separatorLine, lineEnd) in [
            (UInt8(ascii: ";"), CSVDialect.Encoding.utf8, true, false, "\r\n"), (0x09, .utf16LittleEndian, false, false, "\r\n"),
            (UInt8(ascii: ","), .utf16BigEndian, false, false, "\n"), (UInt8(ascii: "|"), .utf8, false, true, "\r\n"),
        ] {
            var dialect = CSVDialect()
            dialect.delimiter = delimiter
            dialect.encoding = encoding
            dialect.byteOrderMark = bom
            dialect.separatorLine = separatorLine
            dialect.lineEnd = lineEnd
            let written = dialect.rewrite(ours)
            XCTAssertEqual(CSVDialect(of: written), dialect, "the file reads as the dialect it was written in")
            let table = try XCTUnwrap(try CSVReader.table(written))
            XCTAssertEqual([table.header.fields] + table.rows.map(\.fields), expected, "\(dialect)")
        }
        var excel = CSVDialect()
        excel.delimiter = UInt8(ascii: ";")
        excel.byteOrderMark = true
        XCTAssertEqual(Array(excel.rewrite(ours).prefix(22)), [0xEF, 0xBB, 0xBF] + Array("line;jid;name;groups\r\n".utf8).prefix(19))
        XCTAssertTrue(String(decoding: excel.rewrite(ours), as: UTF8.self).contains("2;a@x;\"Zoë; \"\"Z\"\", Å\";\"5A;Choir\"\r\n"))
    }
}
