/// A CSV file as a person hands it to the tools: a header and its rows.
public struct CSVTable: Sendable, Equatable {
    /// The first record.
    public var header: CSVRecord
    /// The records after it.
    public var rows: [CSVRecord]
    /// The field delimiter the file uses: `,`, `;` or a tab.
    public var delimiter: Character

    public init(header: CSVRecord, rows: [CSVRecord], delimiter: Character) {
        self.header = header
        self.rows = rows
        self.delimiter = delimiter
    }

    /// The first row with fewer fields than the header, as the error that names its line.
    public var shortRow: CSVError? {
        rows.first { $0.fields.count < header.fields.count }
            .map { .shortRow(line: $0.line, fields: $0.fields.count, header: header.fields.count) }
    }
}

extension CSVReader {
    /// The delimiters a spreadsheet writes: comma, semicolon (where the decimal mark is a comma,
    /// as in most of Europe) and tab ("Unicode Text" and tab-separated exports).
    public static let delimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09]

    /// Reads a spreadsheet's CSV: UTF-8 (a BOM is skipped) or UTF-16 with a byte-order mark;
    /// fields separated by `delimiter` when given, else by the delimiter an Excel `sep=X` first
    /// line names (that line is skipped), else by the one of `delimiters` the header line uses
    /// most (a comma when it has none). Nil when the file holds no record at all.
    public static func table(_ bytes: [UInt8], limits: CSVLimits = CSVLimits(), delimiter: UInt8? = nil) throws(CSVError) -> CSVTable? {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        var text = try utf8(bytes)
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
        var firstLine = 1
        var chosen = delimiter
        if let (sep, rest) = excelSeparatorLine(text) {
            chosen = chosen ?? sep
            text = rest
            firstLine = 2
        }
        let used = chosen ?? headerDelimiter(text)
        let records = try parse(text, limits: limits, delimiter: used, firstLine: firstLine)
        guard let header = records.first else { return nil }
        return CSVTable(header: header, rows: Array(records.dropFirst()), delimiter: Character(Unicode.Scalar(used)))
    }

    /// The bytes as UTF-8: UTF-16 with a byte-order mark (LE or BE) is decoded; anything else is
    /// left for `parse` to check.
    static func utf8(_ bytes: [UInt8]) throws(CSVError) -> [UInt8] {
        let littleEndian: Bool
        if bytes.starts(with: [0xFF, 0xFE]) { littleEndian = true } else if bytes.starts(with: [0xFE, 0xFF]) { littleEndian = false } else {
            return bytes
        }
        guard bytes.count % 2 == 0 else { throw .invalidUTF16 }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2 - 1)
        var i = 2
        while i + 1 < bytes.count {
            units.append(littleEndian ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
            i += 2
        }
        var out: [UInt8] = []
        out.reserveCapacity(units.count)
        var decoder = UTF16()
        var iterator = units.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): UTF8.encode(scalar) { out.append($0) }
            case .emptyInput: return out
            case .error: throw .invalidUTF16
            }
        }
    }

    /// Excel's `sep=;` first line: the delimiter it names and the bytes after that line.
    static func excelSeparatorLine(_ bytes: [UInt8]) -> (UInt8, [UInt8])? {
        guard bytes.count >= 5, bytes.starts(with: Array("sep=".utf8)) || bytes.starts(with: Array("SEP=".utf8)) else { return nil }
        let sep = bytes[4]
        guard delimiters.contains(sep) || sep == UInt8(ascii: "|") else { return nil }
        var i = 5
        guard i == bytes.count || bytes[i] == 0x0D || bytes[i] == 0x0A else { return nil }
        if i < bytes.count, bytes[i] == 0x0D { i += 1 }
        if i < bytes.count, bytes[i] == 0x0A { i += 1 }
        return (sep, Array(bytes[i...]))
    }

    /// The delimiter the header line uses most, outside quotes; a comma when it uses none.
    static func headerDelimiter(_ bytes: [UInt8]) -> UInt8 {
        var counts = [UInt8: Int]()
        var quoted = false
        for b in bytes {
            if b == UInt8(ascii: "\"") { quoted.toggle(); continue }
            if !quoted && (b == 0x0A || b == 0x0D) { break }
            if !quoted && delimiters.contains(b) { counts[b, default: 0] += 1 }
        }
        return delimiters.max { counts[$0, default: 0] < counts[$1, default: 0] }.flatMap { counts[$0, default: 0] > 0 ? $0 : nil }
            ?? UInt8(ascii: ",")
    }
}
