/// `CSVReader.table` on input given in pieces: the header first, then the data records one at
/// a time, so a spreadsheet of any number of rows is read in memory bounded by its longest
/// record. UTF-16 is decoded piece by piece; the byte-order mark, Excel's `sep=X` line and the
/// header's delimiter are settled as soon as the pieces so far show them.
public struct CSVTableReader: Sendable {
    private let limits: CSVLimits
    private let requested: UInt8?
    private var received = 0
    private var ended = false
    /// Nil until the first two bytes tell; then whether the input is UTF-16, and its byte order.
    private var utf16: UTF16Pieces??
    /// Text (UTF-8) not yet given to the parser: until the preamble is settled.
    private var preamble: [UInt8] = []
    private var parser: CSVRecordParser?
    /// The first record, once read.
    public private(set) var header: CSVRecord?
    /// The delimiter the file uses, once settled.
    public private(set) var delimiter: UInt8?
    /// How the file was written (`CSVDialect(of:)` of the whole), once settled.
    public private(set) var dialect: CSVDialect?

    /// A reader of a spreadsheet's CSV with `CSVReader.table`'s rules (`delimiter`: as given there).
    public init(limits: CSVLimits = CSVLimits(), delimiter: UInt8? = nil) {
        self.limits = limits
        requested = delimiter
    }

    /// How many bytes the next piece should have.
    public var wantedBytes: Int { max(1 << 16, parser?.wantedBytes ?? 2 * preamble.count) }

    /// True once `end()` was called and every record was taken.
    public var isFinished: Bool { ended && (parser?.isFinished ?? true) }

    /// Takes the next piece of the input.
    public mutating func append(_ bytes: [UInt8]) throws(CSVError) {
        received += bytes.count
        guard received <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        if utf16 == nil {
            // The raw bytes wait here until two of them tell whether the input is UTF-16.
            preamble += bytes
            guard preamble.count >= 2 else { return }
            let raw = preamble
            preamble = []
            if var decoder = UTF16Pieces(startOf: raw) {
                let decoded = try decoder.decode(Array(raw.dropFirst(2)), final: false)
                utf16 = .some(decoder)
                try text(decoded)
            } else {
                utf16 = .some(nil)
                try text(raw)
            }
            return
        }
        if case .some(.some(var decoder)) = utf16 {
            let decoded = try decoder.decode(bytes, final: false)
            utf16 = .some(decoder)
            try text(decoded)
        } else {
            try text(bytes)
        }
    }

    /// Says the input has ended.
    public mutating func end() throws(CSVError) {
        ended = true
        if utf16 == nil {
            let raw = preamble
            preamble = []
            utf16 = .some(nil)
            try text(raw)
        } else if case .some(.some(var decoder)) = utf16 {
            let decoded = try decoder.decode([], final: true)
            utf16 = .some(decoder)
            try text(decoded)
        }
        if parser == nil { try settle() }
        parser?.end()
    }

    /// The next data record; nil when the pieces so far hold none (before `end()`) or none is
    /// left. The first record of the file is `header`, not a data record.
    public mutating func next() throws(CSVError) -> CSVRecord? {
        guard parser != nil else { return nil }
        if header == nil {
            guard let first = try parser!.next() else { return nil }
            header = first
        }
        return try parser!.next()
    }

    /// UTF-8 text after any decoding: to the parser, or held until the preamble is settled.
    private mutating func text(_ bytes: [UInt8]) throws(CSVError) {
        if parser != nil { return try parser!.append(bytes) }
        preamble += bytes
        try settle()
    }

    /// Settles the byte-order mark, the `sep=` line and the delimiter once the text so far (or
    /// its end) shows them, and starts the parser with the text after them.
    private mutating func settle() throws(CSVError) {
        var text = preamble
        // A BOM, "sep=X", a line break of up to two bytes: 10 bytes decide both.
        guard ended || text.count >= 10 else { return }
        // The dialect's line end is the first line's: the header's, or the sep= line's.
        guard ended || CSVReader.headerLineEnds(in: text) else { return }
        let encoding: CSVDialect.Encoding
        switch utf16 {
        case .some(.some(let decoder)): encoding = decoder.littleEndian ? .utf16LittleEndian : .utf16BigEndian
        default: encoding = .utf8
        }
        dialect = CSVDialect(encoding: encoding, text: text)
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
        var firstLine = 1
        var chosen = requested
        if let (sep, rest) = CSVReader.excelSeparatorLine(text) {
            chosen = chosen ?? sep
            text = rest
            firstLine = 2
        }
        if chosen == nil { chosen = CSVReader.headerDelimiter(text) }
        let used = chosen ?? UInt8(ascii: ",")
        delimiter = used
        preamble = []
        var parser = CSVRecordParser(limits: limits, delimiter: used, firstLine: firstLine)
        try parser.append(text)
        self.parser = parser
    }
}

/// UTF-16 with a byte-order mark, decoded to UTF-8 piece by piece: an odd byte or a high
/// surrogate at the end of a piece waits for the next.
struct UTF16Pieces: Sendable {
    let littleEndian: Bool
    private var carry: [UInt8] = []

    /// The decoder for input starting with `start` (at least two bytes); nil when it is not UTF-16.
    init?(startOf start: [UInt8]) {
        if start.starts(with: [0xFF, 0xFE]) { littleEndian = true } else if start.starts(with: [0xFE, 0xFF]) { littleEndian = false } else {
            return nil
        }
    }

    /// The UTF-8 of the next piece (the byte-order mark already left out).
    mutating func decode(_ bytes: [UInt8], final: Bool) throws(CSVError) -> [UInt8] {
        let all = carry + bytes
        carry = []
        var end = all.count - all.count % 2
        if final && end != all.count { throw .invalidUTF16 }
        var units: [UInt16] = []
        units.reserveCapacity(end / 2)
        var i = 0
        while i + 1 < end {
            units.append(littleEndian ? UInt16(all[i]) | UInt16(all[i + 1]) << 8 : UInt16(all[i]) << 8 | UInt16(all[i + 1]))
            i += 2
        }
        if !final, let last = units.last, (0xD800...0xDBFF).contains(last) {
            units.removeLast()
            end -= 2
        }
        carry = Array(all[end...])
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
}
