import CSQLite3

/// A value bound to or read from SQLite.
public enum SQLValue: Sendable, Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])

    /// The text, if this is text.
    public var text: String? { if case .text(let s) = self { return s } else { return nil } }
    /// The integer, if this is one.
    public var int: Int64? { if case .int(let i) = self { return i } else { return nil } }
    /// The bytes, if this is a blob (or text, as UTF-8).
    public var blob: [UInt8]? {
        switch self {
        case .blob(let b): return b
        case .text(let s): return Array(s.utf8)
        default: return nil
        }
    }
}

/// How hard SQLite works to make a commit survive a power loss (`PRAGMA synchronous`).
public enum SQLiteDurability: String, Sendable {
    /// WAL with `NORMAL`: a power loss may roll back the last commits, never corrupt the file.
    /// Enough for a cache that can be fetched again.
    case normal = "NORMAL"
    /// `FULL`: every commit is synced before it returns. For records whose last commit must
    /// not be undone (the batch journal's `sent` marks).
    case full = "FULL"
}

/// A small SQLite connection wrapper: WAL mode, a busy timeout so two tools at once wait for
/// each other instead of failing, prepared statements, and transactions.
public final class Database {
    private let handle: OpaquePointer
    /// The file it was opened from.
    public let path: String

    /// Opens (creating) the database at `path` with WAL, a busy timeout and `durability`. The
    /// database and its companions (`-wal`, `-shm`, `-journal`) are created 0600 with O_EXCL
    /// first, or refused when found owned by someone else (`FileTrust`): SQLite would open a
    /// planted `-wal` as found and write every change into it. No symlink is followed.
    public init(path: String, busyTimeoutMilliseconds: Int32 = 10_000, durability: SQLiteDurability = .normal) throws(StorageError) {
        try FileTrust.prepareSQLiteFiles(path)
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_NOFOLLOW
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close(db) }
            throw Database.failure(rc, "\(path): \(message)", path: path)
        }
        handle = db
        self.path = path
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(db, 1)
        // journal_mode returns a row; run it as a query.
        _ = try query("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=" + durability.rawValue)
        try execute("PRAGMA foreign_keys=ON")
    }

    deinit { sqlite3_close_v2(handle) }

    /// Frees the pages SQLite keeps cached for this connection (it reads them again when needed).
    public func releaseMemory() {
        sqlite3_db_release_memory(handle)
    }

    /// Runs statements with no results (several may be separated by semicolons).
    public func execute(_ sql: String) throws(StorageError) {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw failure(rc, message)
        }
    }

    /// Runs one statement with bound parameters and returns every row.
    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLValue] = []) throws(StorageError) -> [[SQLValue]] {
        var rows: [[SQLValue]] = []
        try forEachRow(sql, parameters) { row in
            let count = row.columnCount
            var values: [SQLValue] = []
            values.reserveCapacity(Int(count))
            for column in 0..<count { values.append(row.value(column)) }
            rows.append(values)
        }
        return rows
    }

    /// Runs one statement with bound parameters and hands `body` each row in turn, read in place:
    /// no `[[SQLValue]]` of every row.
    public func forEachRow(_ sql: String, _ parameters: [SQLValue] = [],
                           _ body: (SQLRow) throws(StorageError) -> Void) throws(StorageError) {
        let statement = try prepare(sql, parameters)
        defer { sqlite3_finalize(statement) }
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return }
            guard rc == SQLITE_ROW else { throw failure(rc, String(cString: sqlite3_errmsg(handle))) }
            try body(SQLRow(statement: statement))
        }
    }

    private func prepare(_ sql: String, _ parameters: [SQLValue]) throws(StorageError) -> OpaquePointer {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else { throw failure(prepared, String(cString: sqlite3_errmsg(handle))) }
        for (i, value) in parameters.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .int(let v): rc = sqlite3_bind_int64(statement, index, v)
            case .double(let v): rc = sqlite3_bind_double(statement, index, v)
            case .text(let v): rc = sqlite3_bind_text(statement, index, v, -1, xt_sqlite_transient())
            case .blob(let v):
                rc = v.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), xt_sqlite_transient()) }
            }
            guard rc == SQLITE_OK else {
                sqlite3_finalize(statement)
                throw failure(rc, String(cString: sqlite3_errmsg(handle)))
            }
        }
        return statement
    }

    /// Runs `body` in one IMMEDIATE transaction (taking the write lock up front, so two writers
    /// queue on the busy timeout instead of deadlocking); rolls back if it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// True when SQLite's quick integrity check passes.
    public func isHealthy() -> Bool {
        // Not `(try? integrityProblem()) == .some(nil)`: try? flattens a thrown error to nil,
        // which compared as .some(nil), so a check that failed on a malformed file said healthy.
        do { return try integrityProblem() == nil } catch { return false }
    }

    /// What SQLite's quick integrity check found, nil when the file is sound: of the whole file,
    /// or of `tables` and their indexes only. Failing to run the check (the file is locked,
    /// unreadable) is an error, not a finding.
    public func integrityProblem(tables: [String]? = nil) throws(StorageError) -> String? {
        var found: [String] = []
        for statement in tables.map({ $0.map { "PRAGMA quick_check(\"\($0)\")" } }) ?? ["PRAGMA quick_check"] {
            let lines = try query(statement).compactMap { $0.first?.text }
            if lines != ["ok"] { found += lines }
        }
        return found.isEmpty ? nil : found.prefix(3).joined(separator: "; ")
    }

    private func failure(_ rc: Int32, _ message: String) -> StorageError { Database.failure(rc, message, path: path) }

    /// Only "this is not a (sound) database" is `corrupt`, what may be deleted and rebuilt; a
    /// busy, locked, unreadable or full file is an error to report, with its data intact.
    static func failure(_ rc: Int32, _ message: String, path: String) -> StorageError {
        let primary = rc & 0xff
        if primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB { return .corrupt(path: path, reason: message) }
        return .sqlite(message)
    }
}

/// A row of a running statement, valid only inside `Database.forEachRow`'s body (do not keep it). Each accessor
/// gives what `query`'s `SQLValue` would: `text` only for a TEXT column, `int` only for an INTEGER.
public struct SQLRow {
    fileprivate let statement: OpaquePointer

    /// The number of columns.
    public var columnCount: Int32 { sqlite3_column_count(statement) }

    /// The text of `column`, nil when it is not TEXT.
    public func text(_ column: Int32) -> String? {
        guard sqlite3_column_type(statement, column) == SQLITE_TEXT else { return nil }
        return sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
    }

    /// The integer of `column`, nil when it is not INTEGER.
    public func int(_ column: Int32) -> Int64? {
        guard sqlite3_column_type(statement, column) == SQLITE_INTEGER else { return nil }
        return sqlite3_column_int64(statement, column)
    }

    /// The value of `column`, as `query` returns it.
    public func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .int(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .double(sqlite3_column_double(statement, column))
        case SQLITE_TEXT: return .text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
        case SQLITE_BLOB:
            let n = Int(sqlite3_column_bytes(statement, column))
            if let p = sqlite3_column_blob(statement, column), n > 0 { return .blob(Array(UnsafeRawBufferPointer(start: p, count: n))) }
            return .blob([])
        default: return .null
        }
    }
}
