/// `CSVReader.parse`'s records from input given in pieces (a file read a block at a time), so a
/// CSV of any number of rows is read in memory bounded by its longest record. Records come out
/// as soon as their line break is seen; a record the pieces so far cut short waits for the next
/// piece and is parsed again from its start (pieces are asked for at least as large as what is
/// held, so a long record costs linear time).
public struct CSVRecordParser: Sendable {
    private static let quote = UInt8(ascii: "\""), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
    private let limits: CSVLimits
    private let delimiter: UInt8
    private var buffer: [UInt8] = []
    /// Where the next record starts in `buffer`, and its physical line.
    private var position = 0
    private var line: Int
    private var received = 0
    private var records = 0
    private var ended = false
    private var started = false

    /// A parser of fields separated by `delimiter`, the first record on line `firstLine`.
    public init(limits: CSVLimits = CSVLimits(), delimiter: UInt8 = UInt8(ascii: ","), firstLine: Int = 1) {
        self.limits = limits
        self.delimiter = delimiter
        line = firstLine
    }

    /// How many bytes the next piece should have: more than is held, when a record is cut short.
    public var wantedBytes: Int { max(1 << 16, buffer.count - position) }

    /// True once `end()` was called and every record was taken.
    public var isFinished: Bool { ended && position == buffer.count }

    /// Takes the next piece of the input.
    public mutating func append(_ bytes: [UInt8]) throws(CSVError) {
        received += bytes.count
        guard received <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        if position == buffer.count {
            buffer = bytes
            position = 0
        } else {
            if position > 0 && position >= buffer.count / 2 {
                buffer.removeSubrange(0..<position)
                position = 0
            }
            buffer += bytes
        }
        skipByteOrderMark()
    }

    /// Says the input has ended: a record without a final line break is complete.
    public mutating func end() {
        ended = true
        skipByteOrderMark()
    }

    /// A UTF-8 byte-order mark at the very start of the input is skipped (once 3 bytes are known).
    private mutating func skipByteOrderMark() {
        guard !started, ended || buffer.count - position >= 3 else { return }
        started = true
        if buffer[position...].starts(with: [0xEF, 0xBB, 0xBF]) { position += 3 }
    }

    /// The next record; nil when the pieces so far hold no whole record (before `end()`) or no
    /// record is left (after it). Empty lines are skipped.
    public mutating func next() throws(CSVError) -> CSVRecord? {
        guard started else { return nil }
        while position < buffer.count {
            guard let (record, end, endLine) = try parseRecord() else { return nil }
            position = end
            line = endLine
            guard let record else { continue }
            guard records < limits.maxRecords else { throw .tooManyRecords(limit: limits.maxRecords) }
            records += 1
            return record
        }
        return nil
    }

    /// One record from `position`: the record (nil for an empty line), where the next starts and
    /// its line; nil when the buffer ends before the record does and more input may come.
    private func parseRecord() throws(CSVError) -> (CSVRecord?, Int, Int)? {
        let bytes = buffer, count = buffer.count, comma = delimiter, quote = Self.quote, cr = Self.cr, lf = Self.lf
        let limits = limits, more = !ended
        var i = position
        var line = line
        let recordLine = line
        var fields: [String] = []
        var field: [UInt8] = []
        var fieldWasQuoted = false

        func endField() throws(CSVError) {
            guard fields.count < limits.maxFields else { throw .tooManyFields(line: recordLine, limit: limits.maxFields) }
            guard let text = String(validating: field, as: UTF8.self) else { throw .invalidUTF8(line: line) }
            fields.append(text)
            field.removeAll(keepingCapacity: true)
        }
        /// The record ending here, nil when it is an empty line.
        func record() throws(CSVError) -> CSVRecord? {
            try endField()
            let blank = fields.count == 1 && fields[0].isEmpty && !fieldWasQuoted
            return blank ? nil : CSVRecord(line: recordLine, fields: fields)
        }

        /// The record ended by the line break (CRLF, LF or CR) at `at`, and what follows it.
        func lineBreak(at: Int) throws(CSVError) -> (CSVRecord?, Int, Int)? {
            if bytes[at] == cr && at + 1 == count && more { return nil }
            let record = try record()
            return (record, at + (bytes[at] == cr && at + 1 < count && bytes[at + 1] == lf ? 2 : 1), line + 1)
        }

        while i < count {
            let b = bytes[i]
            if b == quote && field.isEmpty {
                // A quoted field: runs to the next quote not followed by another quote.
                let opened = line
                fieldWasQuoted = true
                i += 1
                while true {
                    guard i < count else {
                        if more { return nil }
                        throw .unterminatedQuote(line: opened)
                    }
                    let c = bytes[i]
                    let next: UInt8? = i + 1 < count ? bytes[i + 1] : nil
                    if next == nil && more && (c == quote || c == cr) { return nil }
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
                guard i < count else { break }
                if bytes[i] == comma { try endField(); i += 1; continue }
                if bytes[i] == lf || bytes[i] == cr { return try lineBreak(at: i) }
                throw .textAfterQuote(line: line)
            }
            if b == comma { try endField(); i += 1; continue }
            if b == 0 { throw .nulByte(line: line) }
            if b == lf || b == cr { return try lineBreak(at: i) }
            field.append(b)
            guard field.count <= limits.maxFieldBytes else { throw .fieldTooLong(line: line, limit: limits.maxFieldBytes) }
            i += 1
        }
        if more { return nil }
        return (!fields.isEmpty || !field.isEmpty || fieldWasQuoted ? try record() : nil, count, line)
    }
}
