import Glibc

/// The journal's generated passwords: counting them, taking over those of an earlier report,
/// and wiping them once a finished run's report holds them.
extension BatchJournal {
    /// Rows whose password was taken over: the JIDs an earlier report gave a password for.
    /// Only rows without one take it; they keep it for good (`passwordKept`).
    @discardableResult
    public func adoptPasswords(_ known: [String: String]) throws(JournalError) -> Int {
        guard !known.isEmpty else { return 0 }
        var adopted = 0
        let now = BatchJournal.now
        try transaction { () throws(StorageError) in
            for (jid, password) in known.sorted(by: { $0.key < $1.key }) {
                try database.query(
                    "UPDATE journal_rows SET generated_password=?, password_kept=1, updated_at=? WHERE jid=? AND generated_password IS NULL AND status != 'invalid'",
                    [.text(password), .int(now), .text(jid)])
                adopted += Int(try database.query("SELECT changes()").first?.first?.int ?? 0)
            }
        }
        return adopted
    }

    /// Puts `password` in place of the one the journal at `path` holds for `jid` (a password set
    /// since by the administrator), under the journal's lock; a missing journal, or one without
    /// a password for `jid` (wiped once the report held it), is left as it is.
    public static func replacePassword(at path: String, jid: String, password: String) throws(JournalError) {
        guard access(path, F_OK) == 0 else { return }
        let fd = try lock(path)
        defer { _ = close(fd) }
        do {
            let db = try Database(path: path, durability: .full)
            guard (try? db.query("SELECT 1 FROM journal_rows LIMIT 1")) != nil else { return }
            try db.query("UPDATE journal_rows SET generated_password=? WHERE jid=? AND generated_password IS NOT NULL",
                         [.text(password), .text(jid)])
        } catch {
            throw .storage(error)
        }
    }

    /// How many rows hold a password.
    public func passwordCount() throws(JournalError) -> Int {
        do { return try BatchJournal.passwordCount(database) } catch { throw .storage(error) }
    }

    /// Forgets every password and scrubs the file: SQLite's secure_delete zeroes the old cells,
    /// and a truncating checkpoint empties the write-ahead log that still held them.
    public func wipePasswords() throws(JournalError) {
        do {
            try database.execute("PRAGMA secure_delete=ON")
            try database.execute("UPDATE journal_rows SET generated_password=NULL WHERE generated_password IS NOT NULL")
            _ = try database.query("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            throw .storage(error)
        }
    }

    /// `PRAGMA synchronous` of the journal's connection (2 = FULL).
    public func synchronousSetting() throws(JournalError) -> Int {
        do { return Int(try database.query("PRAGMA synchronous").first?.first?.int ?? -1) } catch { throw .storage(error) }
    }

    static func passwordCount(_ db: Database) throws(StorageError) -> Int {
        // A file that is not a journal has no such table: it holds none.
        guard (try? db.query("SELECT 1 FROM journal_rows LIMIT 1")) != nil else { return 0 }
        return Int(try db.query("SELECT count(*) FROM journal_rows WHERE generated_password IS NOT NULL").first?.first?.int ?? 0)
    }
}
