/// The batch journal's tables. A journal lives as long as one batch, so a change of shape
/// bumps the table names rather than migrating.
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
            updated_at INTEGER NOT NULL DEFAULT 0
        )
        """,
    ]
}
