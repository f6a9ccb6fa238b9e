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
        var reader = CSVTableReader(limits: limits, delimiter: delimiter)
        try reader.append(bytes)
        try reader.end()
        var rows: [CSVRecord] = []
        while let row = try reader.next() { rows.append(row) }
        guard let header = reader.header, let used = reader.delimiter else { return nil }
        return CSVTable(header: header, rows: rows, delimiter: Character(Unicode.Scalar(used)))
    }

    /// The bytes as UTF-8: UTF-16 with a byte-order mark (LE or BE) is decoded; anything else is
    /// left as it is.
    static func utf8(_ bytes: [UInt8]) throws(CSVError) -> [UInt8] {
        guard var decoder = UTF16Pieces(startOf: bytes) else { return bytes }
        return try decoder.decode(Array(bytes.dropFirst(2)), final: true)
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

    /// True when `bytes` hold the header line's end (a line break outside quotes), so that
    /// `headerDelimiter` would read no further.
    static func headerLineEnds(in bytes: [UInt8]) -> Bool {
        var quoted = false
        for (i, b) in bytes.enumerated() {
            if b == UInt8(ascii: "\"") { quoted.toggle(); continue }
            if !quoted && b == 0x0A { return true }
            // A CR ends the line either way; whether an LF follows (the dialect's line end) is known one byte later.
            if !quoted && b == 0x0D { return i + 1 < bytes.count }
        }
        return false
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
