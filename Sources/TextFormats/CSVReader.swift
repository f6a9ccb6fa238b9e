/// One record of a CSV file: its fields and the line it starts on.
public struct CSVRecord: Sendable, Equatable {
    /// 1-based physical line where the record begins (quoted newlines count as lines).
    public var line: Int
    /// The fields, unquoted.
    public var fields: [String]

    public init(line: Int, fields: [String]) {
        self.line = line
        self.fields = fields
    }
}

/// Size limits for CSV input, so a hostile or mistaken file cannot exhaust memory.
public struct CSVLimits: Sendable {
    /// Largest input, in bytes.
    public var maxBytes = 256 << 20
    /// Largest field, in bytes.
    public var maxFieldBytes = 64 << 10
    /// Most fields in one record.
    public var maxFields = 64
    /// Most records, header included.
    public var maxRecords = 2_000_000

    public init() {}
}

/// Why a CSV file cannot be read at all (per-row problems are validation's business).
public enum CSVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input is larger than the limit.
    case tooLarge(limit: Int)
    /// A field is not valid UTF-8.
    case invalidUTF8(line: Int)
    /// A NUL byte, which no text CSV contains.
    case nulByte(line: Int)
    /// A quoted field opened on `line` never closes.
    case unterminatedQuote(line: Int)
    /// Something other than a comma or a line end follows a closing quote.
    case textAfterQuote(line: Int)
    /// A field is longer than the limit.
    case fieldTooLong(line: Int, limit: Int)
    /// A record has more fields than the limit.
    case tooManyFields(line: Int, limit: Int)
    /// More records than the limit.
    case tooManyRecords(limit: Int)
    /// A row has fewer fields than the header (`CSVReader.table`).
    case shortRow(line: Int, fields: Int, header: Int)
    /// UTF-16 text (it starts with a UTF-16 byte-order mark) that is not valid UTF-16.
    case invalidUTF16

    public var description: String {
        switch self {
        case .tooLarge(let l): return "the CSV is larger than \(l >> 20) MiB"
        case .invalidUTF8(let n): return "line \(n): not valid UTF-8 (save the file as UTF-8)"
        case .nulByte(let n): return "line \(n): a NUL byte (is this a binary file, or UTF-16 without a byte-order mark? save it as UTF-8)"
        case .unterminatedQuote(let n): return "line \(n): a quoted field that never closes"
        case .textAfterQuote(let n): return "line \(n): text after a closing quote (write a quote inside a quoted field as \"\")"
        case .fieldTooLong(let n, let l): return "line \(n): a field longer than \(l) bytes"
        case .tooManyFields(let n, let l): return "line \(n): more than \(l) fields"
        case .tooManyRecords(let l): return "more than \(l) rows"
        case .shortRow(let n, let f, let h):
            return "line \(n): \(f) field\(f == 1 ? "" : "s") where the header has \(h) (a missing delimiter, or a line break outside quotes?)"
        case .invalidUTF16: return "the file starts as UTF-16 but is not valid UTF-16 (save it as UTF-8)"
        }
    }
}

/// RFC 4180 CSV: comma-separated fields (or another delimiter), double-quoted fields may hold commas, quotes (doubled)
/// and line breaks; records end with CRLF, LF or a lone CR; a UTF-8 BOM is skipped; empty lines
/// are skipped. A quote inside an unquoted field is kept as text (common in hand-written files).
/// Total: every input gives records or a `CSVError` naming the line.
public enum CSVReader {
    /// Parses all records of `bytes`, fields separated by `delimiter` (a comma unless told), the
    /// first of them on line `firstLine`.
    public static func parse(_ bytes: [UInt8], limits: CSVLimits = CSVLimits(), delimiter: UInt8 = UInt8(ascii: ","),
                             firstLine: Int = 1) throws(CSVError) -> [CSVRecord] {
        var parser = CSVRecordParser(limits: limits, delimiter: delimiter, firstLine: firstLine)
        try parser.append(bytes)
        parser.end()
        var records: [CSVRecord] = []
        while let record = try parser.next() { records.append(record) }
        return records
    }
}
