/// How a spreadsheet wrote a CSV file: its delimiter, encoding, byte-order mark, Excel's `sep=`
/// line and its line ends, as `CSVReader.table` reads them all. Files the tools write for people
/// to open where they opened the input (a report split by class) are written in the input's
/// dialect: a semicolon-separated UTF-8 export with a BOM opens with its accents in Excel only
/// when what comes back has the BOM too.
public struct CSVDialect: Sendable, Equatable {
    public enum Encoding: Sendable, Equatable { case utf8, utf16LittleEndian, utf16BigEndian }

    /// `,`, `;`, a tab, or the `|` an Excel `sep=|` line may name.
    public var delimiter: UInt8 = UInt8(ascii: ",")
    public var encoding: Encoding = .utf8
    /// UTF-8 with EF BB BF first (UTF-16 always has its byte-order mark).
    public var byteOrderMark = false
    /// The file starts with Excel's `sep=X` line.
    public var separatorLine = false
    public var lineEnd = "\r\n"

    /// What `CSVWriter` writes: RFC 4180, commas, CRLF, UTF-8 without a BOM.
    public static let rfc4180 = CSVDialect()

    public init() {}

    /// The dialect of a spreadsheet's CSV `bytes`: the delimiter `CSVReader.table` would choose,
    /// the encoding and BOM it skips, and the first line's end (CRLF, LF or CR).
    public init(of bytes: [UInt8]) {
        var text = bytes
        var encoding = Encoding.utf8
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            encoding = bytes[0] == 0xFF ? .utf16LittleEndian : .utf16BigEndian
            text = (try? CSVReader.utf8(bytes)) ?? []
        }
        self.init(encoding: encoding, text: text)
    }

    /// The dialect of a CSV in `encoding` whose text, as UTF-8, starts with `text` (a UTF-8
    /// BOM included), as far as its first line end (`CSVTableReader` settles it from there).
    init(encoding: Encoding, text start: [UInt8]) {
        var text = start
        self.encoding = encoding
        if encoding == .utf8 && text.starts(with: [0xEF, 0xBB, 0xBF]) {
            byteOrderMark = true
            text.removeFirst(3)
        }
        if let (sep, rest) = CSVReader.excelSeparatorLine(text) {
            delimiter = sep
            separatorLine = true
            lineEnd = Self.lineEnd(of: text)
            text = rest
        } else {
            delimiter = CSVReader.headerDelimiter(text)
            lineEnd = Self.lineEnd(of: text)
        }
    }

    /// The end of the first line outside quotes; CRLF when there is none.
    private static func lineEnd(of text: [UInt8]) -> String {
        var quoted = false
        for (i, b) in text.enumerated() {
            if b == UInt8(ascii: "\"") { quoted.toggle() }
            if quoted { continue }
            if b == 0x0D { return i + 1 < text.count && text[i + 1] == 0x0A ? "\r\n" : "\r" }
            if b == 0x0A { return "\n" }
        }
        return "\r\n"
    }

    /// `csv` (as `CSVWriter` writes it) in this dialect, each field as it is (already
    /// neutralised), quoted where `CSVWriter.quote` quotes it or where it holds this delimiter.
    /// `csv` itself when this is `rfc4180`, or when it cannot be read as CSV.
    public func rewrite(_ csv: [UInt8]) -> [UInt8] {
        guard self != .rfc4180, let records = try? CSVReader.parse(csv) else { return csv }
        let separator = String(UnicodeScalar(delimiter))
        var text = separatorLine ? "sep=" + separator + lineEnd : ""
        for record in records {
            if record.fields == [""] {
                text += "\"\"" + lineEnd
                continue
            }
            text += record.fields.map { field in
                let quoted = CSVWriter.quote(field)
                guard quoted == field, field.utf8.contains(delimiter) else { return quoted }
                var out = "\""
                for scalar in field.unicodeScalars { out.unicodeScalars.append(scalar); if scalar == "\"" { out += "\"" } }
                return out + "\""
            }.joined(separator: separator) + lineEnd
        }
        switch encoding {
        case .utf8:
            return (byteOrderMark ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
        case .utf16LittleEndian:
            return [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case .utf16BigEndian:
            return [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
    }
}
