import TextFormats

/// A batch's input, read and checked before anything is sent: its columns, and the rows of this
/// shard, each valid or invalid with the reason (`BatchSheetReader`'s rows, all held).
public struct BatchSheet: Sendable {
    /// The SHA-256 of the input's bytes (it identifies the batch to its journal).
    public let inputSHA256: [UInt8]
    /// The header's columns, known and unknown.
    public let columns: BatchColumns
    /// The rows of this shard, in order.
    public let rows: [CheckedRow]
    /// What to tell the user about the input before the rows (an LDIF's map: columns no entry fills).
    public let notes: [String]
    /// How the CSV was written (delimiter, encoding, BOM, line ends): the report split by group
    /// is written the same way (`GroupReports`). RFC 4180 for an LDIF input.
    public let dialect: CSVDialect

    /// Every row `reader` has left.
    public init(reader: BatchSheetReader) throws(BatchError) {
        var rows: [CheckedRow] = []
        while let row = try reader.next() { rows.append(row) }
        self.rows = rows
        columns = reader.columns
        notes = reader.notes
        inputSHA256 = reader.inputSHA256
        dialect = reader.dialect
    }

    /// Parses and validates `input`; `name` names it in errors ("standard input" or its path),
    /// and relative avatar paths are taken from `baseDirectory`.
    public init(input: [UInt8], name: String, configuration: BatchConfiguration, baseDirectory: String) throws(BatchError) {
        try self.init(reader: BatchSheetReader(input: BatchInputStream(bytes: input, name: name), configuration: configuration,
                                               baseDirectory: baseDirectory))
    }

    /// The rows that did not pass the checks.
    public var invalid: [InvalidRow] { rows.compactMap { if case .invalid(let r) = $0 { return r } else { return nil } } }
}
