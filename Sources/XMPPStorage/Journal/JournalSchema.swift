/// The batch journal's tables. A journal lives as long as one batch, so a change of shape
/// bumps the table names rather than migrating; columns added later are added to an older
/// journal when it is resumed (`upgrade`), with defaults that mean what the older one did.
enum JournalSchema {
    static let statements: [String] = [
        "CREATE TABLE IF NOT EXISTS journal_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS journal_rows (
            line INTEGER PRIMARY KEY,
            jid TEXT NOT NULL,
            status TEXT NOT NULL,
            error TEXT,
            retryable INTEGER NOT NULL DEFAULT 0,
            uncertain INTEGER NOT NULL DEFAULT 0,
            attempts INTEGER NOT NULL DEFAULT 0,
            generated_password TEXT,
            profile TEXT,
            password_kept INTEGER NOT NULL DEFAULT 0,
            note TEXT,
            roster TEXT,
            updated_at INTEGER NOT NULL DEFAULT 0
        )
        """,
    ]

    /// Columns newer than the first journals: name and definition.
    static let addedColumns: [(String, String)] = [
        ("password_kept", "INTEGER NOT NULL DEFAULT 0"),
        ("note", "TEXT"),
        ("roster", "TEXT"),
    ]

    /// Adds the columns an older journal lacks.
    static func upgrade(_ db: Database) throws(StorageError) {
        let present = Set(try db.query("PRAGMA table_info(journal_rows)").compactMap { $0.count > 1 ? $0[1].text : nil })
        for (name, definition) in addedColumns where !present.contains(name) {
            try db.execute("ALTER TABLE journal_rows ADD COLUMN \(name) \(definition)")
        }
    }
}
