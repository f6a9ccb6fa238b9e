@testable import TextFormats
import Foundation
import XCTest

/// RFC 4180 reading: quoting, line ends, BOM, line numbers in records and errors, limits.
final class CSVReaderTests: XCTestCase {
    private func parse(_ text: String, limits: CSVLimits = CSVLimits()) throws -> [CSVRecord] {
        try CSVReader.parse(Array(text.utf8), limits: limits)
    }

    private func error(_ text: String, limits: CSVLimits = CSVLimits()) -> CSVError? {
        do { _ = try CSVReader.parse(Array(text.utf8), limits: limits); return nil } catch { return error }
    }

    func testQuotedCommasQuotesAndNewlinesWithLineNumbers() throws {
        let text = "jid,password\r\n\"a@x\",\"p,w\"\r\nb@x,\"say \"\"hi\"\"\"\r\nc@x,\"two\r\nlines\"\r\nd@x,plain\r\n"
        XCTAssertEqual(try parse(text), [
            CSVRecord(line: 1, fields: ["jid", "password"]),
            CSVRecord(line: 2, fields: ["a@x", "p,w"]),
            CSVRecord(line: 3, fields: ["b@x", "say \"hi\""]),
            CSVRecord(line: 4, fields: ["c@x", "two\r\nlines"]),
            CSVRecord(line: 6, fields: ["d@x", "plain"]),
        ])
    }

    func testBOMAndLFAndLoneCRAndMissingFinalNewline() throws {
        XCTAssertEqual(try CSVReader.parse([0xEF, 0xBB, 0xBF] + Array("a,b\nc,d\re,f".utf8)), [
            CSVRecord(line: 1, fields: ["a", "b"]), CSVRecord(line: 2, fields: ["c", "d"]), CSVRecord(line: 3, fields: ["e", "f"]),
        ])
    }

    func testEmptyLinesAreSkippedButEmptyFieldsKept() throws {
        XCTAssertEqual(try parse("a,b\n\n,\n\"\"\n\nx,\n"), [
            CSVRecord(line: 1, fields: ["a", "b"]), CSVRecord(line: 3, fields: ["", ""]),
            CSVRecord(line: 4, fields: [""]), CSVRecord(line: 6, fields: ["x", ""]),
        ])
    }

    func testUnicodeAndQuoteInsideUnquotedFieldAreKept() throws {
        XCTAssertEqual(try parse("müller@x,O\"Brien,日本\n"), [CSVRecord(line: 1, fields: ["müller@x", "O\"Brien", "日本"])])
    }

    func testErrorsNameTheLine() {
        XCTAssertEqual(error("a,b\nc,\"open\nstill open"), .unterminatedQuote(line: 2))
        XCTAssertEqual(error("a,b\n\"x\"y,z\n"), .textAfterQuote(line: 2))
        XCTAssertEqual(error("a\nb\u{0}c\n"), .nulByte(line: 2))
        XCTAssertEqual(try? CSVReader.parse(Array("a\nb".utf8) + [0xFF, 0x0A]), nil)
        do { _ = try CSVReader.parse(Array("ok\nb".utf8) + [0xC3, 0x28] + [0x0A]); XCTFail("accepted invalid UTF-8") } catch {
            XCTAssertEqual(error, .invalidUTF8(line: 2))
        }
    }

    func testLimits() {
        var limits = CSVLimits()
        limits.maxFieldBytes = 4
        XCTAssertEqual(error("abcd\nabcde\n", limits: limits), .fieldTooLong(line: 2, limit: 4))
        XCTAssertEqual(error("\"abcde\"\n", limits: limits), .fieldTooLong(line: 1, limit: 4))
        limits = CSVLimits()
        limits.maxFields = 3
        XCTAssertEqual(error("a,b,c\na,b,c,d\n", limits: limits), .tooManyFields(line: 2, limit: 3))
        limits = CSVLimits()
        limits.maxRecords = 2
        XCTAssertEqual(error("a\nb\nc\n", limits: limits), .tooManyRecords(limit: 2))
        limits = CSVLimits()
        limits.maxBytes = 5
        XCTAssertEqual(error("abcdef", limits: limits), .tooLarge(limit: 5))
    }

    /// Found by FuzzCSV (fuzz/regressions/FuzzCSV): doubled quotes and CRLFs inside a quoted
    /// field were appended without the size check, so such a field could grow past the limit.
    func testFieldLimitCountsDoubledQuotesAndCRLFs() {
        var limits = CSVLimits()
        limits.maxFieldBytes = 1
        XCTAssertEqual(error("\"A\"\"\"\"\"", limits: limits), .fieldTooLong(line: 1, limit: 1))
        limits.maxFieldBytes = 3
        XCTAssertEqual(error("x\n\"\r\n\r\n\"\n", limits: limits), .fieldTooLong(line: 2, limit: 3))
        XCTAssertEqual(try? CSVReader.parse(Array("\"\"\"\"\"\"\"\"\n".utf8), limits: limits).map(\.fields), [["\"\"\""]])
    }

    func testTotalOnArbitraryBytes() {
        // Whatever the input, the reader returns records or a CSVError, and never traps.
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x22, 0x2C, 0x0D, 0x0A, 0x61, 0xC3, 0xA9, 0x00, 0xFF, 0x20]
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            _ = try? CSVReader.parse(bytes)
        }
    }
}
