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
    private static let quote = UInt8(ascii: "\""), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    /// Parses all records of `bytes`, fields separated by `delimiter` (a comma unless told), the
    /// first of them on line `firstLine`.
    public static func parse(_ bytes: [UInt8], limits: CSVLimits = CSVLimits(), delimiter: UInt8 = UInt8(ascii: ","),
                             firstLine: Int = 1) throws(CSVError) -> [CSVRecord] {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        let comma = delimiter
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = firstLine
        var records: [CSVRecord] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var recordLine = firstLine
        var fieldWasQuoted = false

        func endField() throws(CSVError) {
            guard fields.count < limits.maxFields else { throw .tooManyFields(line: recordLine, limit: limits.maxFields) }
            guard let text = String(validating: field, as: UTF8.self) else { throw .invalidUTF8(line: line) }
            fields.append(text)
            field.removeAll(keepingCapacity: true)
        }
        func endRecord() throws(CSVError) {
            try endField()
            let blank = fields.count == 1 && fields[0].isEmpty && !fieldWasQuoted
            if !blank {
                guard records.count < limits.maxRecords else { throw .tooManyRecords(limit: limits.maxRecords) }
                records.append(CSVRecord(line: recordLine, fields: fields))
            }
            fields.removeAll(keepingCapacity: true)
            fieldWasQuoted = false
        }
        /// Consumes the line break (CRLF, LF or CR) at `i`.
        func skipLineBreak() {
            i += bytes[i] == cr && bytes.count > i + 1 && bytes[i + 1] == lf ? 2 : 1
            line += 1
        }

        while i < bytes.count {
            if fields.isEmpty && field.isEmpty && !fieldWasQuoted { recordLine = line }
            let b = bytes[i]
            if b == quote && field.isEmpty {
                // A quoted field: runs to the next quote not followed by another quote.
                let opened = line
                fieldWasQuoted = true
                i += 1
                while true {
                    guard i < bytes.count else { throw .unterminatedQuote(line: opened) }
                    let c = bytes[i]
                    let next: UInt8? = i + 1 < bytes.count ? bytes[i + 1] : nil
                    if c == quote {
                        guard next == quote else { i += 1; break }
                        field.append(quote)
                        i += 2
                    } else if c == 0 {
                        throw .nulByte(line: line)
                    } else if c == cr && next == lf {
                        field.append(contentsOf: [cr, lf])
                        i += 2
                        line += 1
                    } else {
                        if c == lf || c == cr { line += 1 }
                        field.append(c)
                        i += 1
                    }
                    // After every append: a field of doubled quotes or CRLFs is bounded too.
                    guard field.count <= limits.maxFieldBytes else { throw .fieldTooLong(line: opened, limit: limits.maxFieldBytes) }
                }
                guard i < bytes.count else { break }
                if bytes[i] == comma { try endField(); i += 1; continue }
                if bytes[i] == lf || bytes[i] == cr { try endRecord(); skipLineBreak(); continue }
                throw .textAfterQuote(line: line)
            }
            if b == comma { try endField(); i += 1; continue }
            if b == 0 { throw .nulByte(line: line) }
            if b == lf || b == cr { try endRecord(); skipLineBreak(); continue }
            field.append(b)
            guard field.count <= limits.maxFieldBytes else { throw .fieldTooLong(line: line, limit: limits.maxFieldBytes) }
            i += 1
        }
        if !fields.isEmpty || !field.isEmpty || fieldWasQuoted { try endRecord() }
        return records
    }
}
