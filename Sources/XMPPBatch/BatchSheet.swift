import TextFormats

/// A batch's CSV, read and checked before anything is sent: its columns, and the rows of this
/// shard, each valid or invalid with the reason.
public struct BatchSheet: Sendable {
    /// The input's bytes (they identify the batch to its journal).
    public let input: [UInt8]
    /// The header's columns, known and unknown.
    public let columns: BatchColumns
    /// The rows of this shard, in order.
    public let rows: [CheckedRow]
    /// What to tell the user about the input before the rows (an LDIF's map: columns no entry fills).
    public let notes: [String]
    /// How the CSV was written (delimiter, encoding, BOM, line ends): the report split by group
    /// is written the same way (`GroupReports`). RFC 4180 for an LDIF input.
    public let dialect: CSVDialect

    /// Parses and validates `input`; `name` names it in errors ("standard input" or its path),
    /// and relative avatar paths are taken from `baseDirectory`.
    public init(input: [UInt8], name: String, configuration: BatchConfiguration, baseDirectory: String) throws(BatchError) {
        let (table, notes) = try BatchSheet.table(input, name: name, configuration: configuration)
        self.notes = notes
        guard let table else { throw .invalidCSV("\(name): no header row (expected e.g. jid,password)") }
        // An input with no records is a failed export far more often than a wish to have no
        // accounts (ldapsearch against a dead server prints nothing): sync would remove everyone.
        guard !table.rows.isEmpty else {
            throw .invalidCSV("\(name): no records (an empty export?); nothing was planned")
        }
        columns = try BatchColumns(header: table.header, configuration: configuration)
        var validator = BatchValidator(columns: columns, configuration: configuration, baseDirectory: baseDirectory)
        var checked = validator.check(table.rows)
        let roster = RosterPlan(rows: checked)
        if !roster.problems.isEmpty {
            checked = checked.map { row in
                guard case .valid(let good) = row, let problem = roster.problems[good.line] else { return row }
                return .invalid(InvalidRow(line: good.line, jidText: good.jid.description, reason: problem))
            }
        }
        if let shard = configuration.shard {
            checked = checked.filter { BatchInput.shard(of: $0.shardKey, count: shard.count) == shard.index - 1 }
        }
        self.input = input
        dialect = configuration.directoryMap == nil ? CSVDialect(of: input) : .rfc4180
        rows = checked
    }

    /// The rows that did not pass the checks.
    public var invalid: [InvalidRow] { rows.compactMap { if case .invalid(let r) = $0 { return r } else { return nil } } }
}
