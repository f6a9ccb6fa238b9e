@testable import TextFormats
import XCTest

/// `CSVTableReader` given the input in pieces gives what `CSVReader.table` gives for the whole:
/// the same header, records, lines and delimiter, or the same error, wherever the pieces are cut
/// (inside a CRLF, a doubled quote, a UTF-16 surrogate pair, the BOM or the `sep=` line), and
/// the dialect `CSVDialect(of:)` finds in the whole.
final class CSVTableReaderTests: XCTestCase {
    private struct Outcome: Equatable {
        var header: CSVRecord?
        var rows: [CSVRecord]
        var delimiter: UInt8?
        var error: CSVError?
        /// The dialect, for a file that has a header.
        var dialect: CSVDialect?
    }

    private func inPieces(_ bytes: [UInt8], size: Int, limits: CSVLimits = CSVLimits()) -> Outcome {
        var reader = CSVTableReader(limits: limits)
        var rows: [CSVRecord] = []
        var offset = 0
        do {
            while true {
                if let row = try reader.next() { rows.append(row); continue }
                if reader.isFinished { break }
                if offset == bytes.count { try reader.end(); continue }
                let end = min(bytes.count, offset + size)
                try reader.append(Array(bytes[offset..<end]))
                offset = end
            }
            return Outcome(header: reader.header, rows: rows, delimiter: reader.header == nil ? nil : reader.delimiter,
                           dialect: reader.header == nil ? nil : reader.dialect)
        } catch {
            return Outcome(header: nil, rows: [], delimiter: nil, error: error)
        }
    }

    private func whole(_ bytes: [UInt8], limits: CSVLimits = CSVLimits()) -> Outcome {
        do {
            guard let table = try CSVReader.table(bytes, limits: limits) else { return Outcome(rows: []) }
            return Outcome(header: table.header, rows: table.rows, delimiter: table.delimiter.asciiValue, dialect: CSVDialect(of: bytes))
        } catch {
            return Outcome(header: nil, rows: [], delimiter: nil, error: error)
        }
    }

    private func utf16(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        return bytes
    }

    private let inputs: [[UInt8]] = [
        Array("jid,password\r\na@x,pw\r\nb@x,\"p\"\"w\"\r\n\r\nc@x,\"two\r\nlines\"\r\n".utf8),
        Array("jid;password\ra@x;pw\rb@x;\"q\"".utf8),
        Array("\u{FEFF}sep=;\r\njid;password\na@x;\"a;b\"\n".utf8),
        Array("SEP=|\njid|password\na@x|pw".utf8),
        Array("jid\tpassword\tfullname\na@x\tpw\tZoé 美咲\n,,\n\"\"\n".utf8),
        Array("\"jid\",\"pass\nword\"\na@x,pw\n".utf8),
        Array("jid,password\na@x,\"open\n".utf8),
        Array("jid,password\na@x,\"closed\"x\n".utf8),
        Array("jid,password\na@x,p\0w\n".utf8),
        Array("jid,password\na@x,".utf8) + [0xC3, 0x28] + Array("\n".utf8),
        Array("jid,password".utf8),
        Array("\n\n".utf8),
        [],
        Array("s".utf8),
        Array("jid,password\r".utf8),
        Array("jid,password\ra@x,pw\r".utf8),
    ]

    func testPiecesOfAnySizeGiveWhatTheWholeGives() {
        let unicode = utf16("jid\tpassword\tfullname\r\na@x\tpw\t😀 Zoé\r\n")
        for bytes in inputs + [unicode, Array(unicode.dropLast()), unicode + [0x3D, 0xD8]] {
            let expected = whole(bytes)
            for size in [1, 2, 3, 5, 7, 64] {
                XCTAssertEqual(inPieces(bytes, size: size), expected, "\(String(decoding: bytes, as: UTF8.self).debugDescription) in pieces of \(size)")
            }
        }
    }

    func testLimitsHoldAcrossPieces() {
        var limits = CSVLimits()
        limits.maxRecords = 3
        limits.maxFieldBytes = 8
        limits.maxBytes = 40
        for bytes in [Array("h\na\nb\nc\n".utf8), Array("h\n\"0123456789\"\n".utf8), Array(repeating: UInt8(ascii: "a"), count: 41)] {
            let expected = whole(bytes, limits: limits)
            XCTAssertNotNil(expected.error)
            for size in [1, 3, 64] { XCTAssertEqual(inPieces(bytes, size: size, limits: limits), expected) }
        }
    }

    func testPiecesGrowWithARecordLongerThanThem() throws {
        // A record of 60 fields of 60 KB: a record cut short is parsed again from its start when
        // the next piece comes, so the reader asks for pieces as large as what it holds (a few
        // doubling pieces, not 56 of 64 KB each parsing 3.6 MB again).
        let field = Array(repeating: UInt8(ascii: "x"), count: 60_000)
        var bytes = Array("h\n".utf8)
        for i in 0..<60 { bytes += (i == 0 ? [] : [UInt8(ascii: ",")]) + field }
        bytes += Array("\n".utf8)
        var reader = CSVTableReader()
        var offset = 0, pieces = 0
        var records: [CSVRecord] = []
        while offset < bytes.count {
            let end = min(bytes.count, offset + reader.wantedBytes)
            try reader.append(Array(bytes[offset..<end]))
            pieces += 1
            offset = end
            while let record = try reader.next() { records.append(record) }
        }
        try reader.end()
        while let record = try reader.next() { records.append(record) }
        XCTAssertEqual(records.map(\.fields.count), [60])
        XCTAssertLessThanOrEqual(pieces, 8)
    }
}
