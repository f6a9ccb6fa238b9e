import FuzzSupport
import TextFormats

/// Fuzz target for `CSVReader`, which reads the account lists `xmpp-register batch` provisions
/// and the files `xmpp-roster import` loads, and `CSVWriter`, which writes the batch report and
/// the roster export.
///
/// The first byte picks small limits (so the limit paths are reached with small inputs); the
/// rest is the file. Invariants checked: reading never crashes; records start on increasing
/// lines and respect the limits; every record written back with `CSVWriter` (CRLF or LF ends)
/// reads in again with the same fields. Fields are untrusted text that the tools print and put
/// into JSON, so each is also checked through `TerminalText` (no raw control or bidi character
/// survives) and `JSONValue` (the quoted string holds none either and `JSONParser` reads it back
/// unchanged). `CSVReader.table`, the spreadsheet reader, runs on the same bytes, and what it
/// reads is written back in the file's `CSVDialect` and read again.
enum FuzzCSVTarget: FuzzTarget {
    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        guard let selector = data.first else { return }
        var limits = CSVLimits()
        limits.maxFieldBytes = 1 + Int(selector & 0x0F) * 16
        limits.maxFields = 1 + Int(selector >> 4)
        limits.maxRecords = 64
        let bytes = Array(data.dropFirst())
        checkTable(bytes, limits: limits)
        guard let records = try? CSVReader.parse(bytes, limits: limits) else { return }

        var previousLine = 0
        for record in records {
            FuzzReplay.invariant(record.line > previousLine, "record lines go \(previousLine) → \(record.line)")
            FuzzReplay.invariant(!record.fields.isEmpty && record.fields.count <= limits.maxFields,
                                 "\(record.fields.count) fields on line \(record.line), limit \(limits.maxFields)")
            FuzzReplay.invariant(record.fields.allSatisfy { $0.utf8.count <= limits.maxFieldBytes },
                                 "a field over \(limits.maxFieldBytes) bytes on line \(record.line)")
            previousLine = record.line
        }
        FuzzReplay.invariant(records.count <= limits.maxRecords, "\(records.count) records, limit \(limits.maxRecords)")

        let fields = records.map(\.fields)
        for field in fields.joined() { checkPrinted(field) }
        for lineEnd in ["\r\n", "\n"] {
            let written = fields.map { CSVWriter.record($0, lineEnd: lineEnd) }.joined()
            var unlimited = CSVLimits()
            unlimited.maxRecords = limits.maxRecords
            do throws(CSVError) {
                let again = try CSVReader.parse(Array(written.utf8), limits: unlimited).map { $0.fields.map(CSVWriter.restored) }
                FuzzReplay.invariant(again == fields, "\(fields) written as \(written.debugDescription) reads back as \(again)")
            } catch {
                FuzzReplay.invariant(false, "\(fields) written as \(written.debugDescription) is refused: \(error)")
            }
        }
    }
}

extension FuzzCSVTarget {
    /// The spreadsheet reader (UTF-16, sep= line, delimiter detection) on the same bytes: never a
    /// crash, the limits hold, and the delimiter is one it reads.
    static func checkTable(_ bytes: [UInt8], limits: CSVLimits) {
        guard let table = try? CSVReader.table(bytes, limits: limits) else { return }
        FuzzReplay.invariant([",", ";", "\t", "|"].contains(table.delimiter), "delimiter \(table.delimiter.debugDescription)")
        for record in [table.header] + table.rows {
            FuzzReplay.invariant(record.fields.count <= limits.maxFields && record.fields.allSatisfy { $0.utf8.count <= limits.maxFieldBytes },
                                 "table record on line \(record.line) over the limits")
            for field in record.fields { checkPrinted(field) }
        }
        checkDialect(bytes, table: table)
    }

    /// The dialect found in the bytes is the one the reader used, and a report written in it
    /// (`CSVDialect.rewrite` of `CSVWriter`'s output, as --report-by-group writes class files)
    /// reads back with the same fields.
    static func checkDialect(_ bytes: [UInt8], table: CSVTable) {
        let dialect = CSVDialect(of: bytes)
        FuzzReplay.invariant(Character(Unicode.Scalar(dialect.delimiter)) == table.delimiter,
                             "dialect delimiter \(dialect.delimiter) but the table's \(table.delimiter.debugDescription)")
        var written = ""
        for record in [table.header] + table.rows { written += CSVWriter.record(record.fields) }
        guard let expected = try? CSVReader.parse(Array(written.utf8)).map(\.fields) else { return }
        let rewritten = dialect.rewrite(Array(written.utf8))
        do throws(CSVError) {
            let back = try CSVReader.table(rewritten, delimiter: dialect.delimiter).map { [$0.header] + $0.rows }?.map(\.fields) ?? []
            FuzzReplay.invariant(back == expected, "\(expected) written in \(dialect) reads back as \(back)")
        } catch {
            FuzzReplay.invariant(false, "\(expected) written in \(dialect) is refused: \(error)")
        }
    }

    /// A field as text output and as JSON: nothing reaches a terminal raw, and JSON round-trips.
    static func checkPrinted(_ field: String) {
        let shown = TerminalText.escaped(field)
        FuzzReplay.invariant(!shown.unicodeScalars.contains(where: TerminalText.needsEscape),
                             "\(field.debugDescription) is shown as \(shown.debugDescription)")
        let json = JSONValue.array([.string(field)]).compact
        FuzzReplay.invariant(!json.unicodeScalars.contains(where: TerminalText.needsEscape),
                             "\(field.debugDescription) is quoted as \(json.debugDescription)")
        do throws(JSONParser.Failure) {
            let back = try JSONParser.parse(Array(json.utf8))
            FuzzReplay.invariant(back == .array([.string(field)]), "\(json.debugDescription) reads back as \(back)")
        } catch {
            FuzzReplay.invariant(false, "\(json.debugDescription) is refused: \(error)")
        }
    }
}
