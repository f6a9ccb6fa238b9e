import TextFormats

/// A batch's input read and checked one row at a time, in order: the header first (its columns
/// and notes), then each row of this shard, valid or invalid with the reason. A CSV is read a
/// block at a time and other shards' rows are dropped as they are read, so what stays in memory
/// is a compact record of each account seen (for duplicates, `AccountFirstLines`), not the rows.
/// Two inputs are still held whole: an LDIF (its entries are joined into rows by `--map`), and a
/// CSV with a `contacts` column (a row's contacts may name any later row or group, so every row
/// is known before the first is judged: `RosterPlan`).
public final class BatchSheetReader {
    /// "standard input" or the path, as errors name it.
    public let name: String
    /// The header's columns, known and unknown.
    public let columns: BatchColumns
    /// What to tell the user about the input before the rows (an LDIF's map: columns no entry fills).
    public let notes: [String]
    private let input: BatchInputStream
    private let configuration: BatchConfiguration
    private var validator: BatchValidator
    private var csv: CSVTableReader?
    /// Records read but not yet checked: the first data record (read to know there is one), or
    /// an LDIF's.
    private var records: [CSVRecord]
    private var nextRecord = 0
    /// With a `contacts` column: every row of the shard, checked and joined with the rosters,
    /// and the next to give.
    private var held: [CheckedRow]?
    private var nextHeld = 0

    /// Reads the header (and the first record: an input with none is refused) of `input`, CSV
    /// or, with `configuration.directoryMap`, LDIF; relative avatar paths are taken from
    /// `baseDirectory`.
    public init(input: BatchInputStream, configuration: BatchConfiguration, baseDirectory: String) throws(BatchError) {
        self.input = input
        self.configuration = configuration
        name = input.name
        let header: CSVRecord?
        if let map = configuration.directoryMap {
            let (table, notes) = try BatchSheet.table(try input.readAll(), name: input.name, map: map)
            self.notes = notes
            header = table?.header
            records = table?.rows ?? []
        } else {
            var csv = CSVTableReader()
            records = []
            if let first = try BatchSheetReader.record(from: &csv, input) { records.append(first) }
            header = csv.header
            self.csv = csv
            notes = []
        }
        guard let header else { throw .invalidCSV("\(input.name): no header row (expected e.g. jid,password)") }
        // An input with no records is a failed export far more often than a wish to have no
        // accounts (ldapsearch against a dead server prints nothing): sync would remove everyone.
        guard !records.isEmpty else {
            throw .invalidCSV("\(input.name): no records (an empty export?); nothing was planned")
        }
        columns = try BatchColumns(header: header, configuration: configuration)
        validator = BatchValidator(columns: columns, configuration: configuration, baseDirectory: baseDirectory)
        if configuration.mode == .create && columns.index["contacts"] != nil { held = try rowsWithRosters() }
    }

    /// The next row of this shard; nil after the last.
    public func next() throws(BatchError) -> CheckedRow? {
        if let held {
            guard nextHeld < held.count else { return nil }
            defer { nextHeld += 1 }
            return held[nextHeld]
        }
        // Other shards' rows are dropped before they are remembered for duplicates.
        while let record = try nextCSVRecord() {
            guard let checked = validator.checkRow(record), inShard(checked) else { continue }
            return validator.telling(duplicate: checked)
        }
        return nil
    }

    /// The SHA-256 of the whole input (it identifies the batch to its journal); once every row was read.
    public var inputSHA256: [UInt8] { input.inputSHA256 }

    /// How the CSV was written (delimiter, encoding, BOM, line ends): the report split by group
    /// is written the same way (`GroupReports`). RFC 4180 for an LDIF input.
    public var dialect: CSVDialect { csv?.dialect ?? .rfc4180 }

    private func inShard(_ row: CheckedRow) -> Bool {
        guard let shard = configuration.shard else { return true }
        return BatchInput.shard(of: row.shardKey, count: shard.count) == shard.index - 1
    }

    private func nextCSVRecord() throws(BatchError) -> CSVRecord? {
        if nextRecord < records.count {
            defer {
                nextRecord += 1
                if nextRecord == records.count {
                    records = []
                    nextRecord = 0
                }
            }
            return records[nextRecord]
        }
        guard csv != nil else { return nil }
        return try BatchSheetReader.record(from: &csv!, input)
    }

    /// The next record `csv` gives, reading `input` as it needs.
    private static func record(from csv: inout CSVTableReader, _ input: BatchInputStream) throws(BatchError) -> CSVRecord? {
        do {
            while true {
                if let record = try csv.next() { return record }
                if csv.isFinished { return nil }
                let block = try input.read(maximum: csv.wantedBytes)
                if block.isEmpty { try csv.end() } else { try csv.append(block) }
            }
        } catch let error as CSVError {
            throw .invalidCSV("\(input.name): \(error)")
        } catch let error as BatchError {
            throw error
        } catch {
            throw .invalidCSV("\(input.name): \(error)")
        }
    }

    /// Every row, checked, with the rows whose `contacts` name neither a row nor a group made
    /// invalid; then this shard's.
    private func rowsWithRosters() throws(BatchError) -> [CheckedRow] {
        var checked: [CheckedRow] = []
        while let record = try nextCSVRecord() {
            if let row = validator.checkRow(record) { checked.append(validator.telling(duplicate: row)) }
        }
        let roster = RosterPlan(rows: checked)
        if !roster.problems.isEmpty {
            checked = checked.map { row in
                guard case .valid(let good) = row, let problem = roster.problems[good.line] else { return row }
                return .invalid(InvalidRow(line: good.line, jidText: good.jid.description, reason: problem))
            }
        }
        return checked.filter(inShard)
    }
}
