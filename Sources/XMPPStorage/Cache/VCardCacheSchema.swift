/// The vCard cache's table: one row per (account, JID) with the card as vcard-temp XML, the
/// SHA-1 of its photo (XEP-0153's avatar hash) and when it was fetched.
enum VCardCacheSchema {
    static let statements: [String] = [
        """
        CREATE TABLE IF NOT EXISTS vcard_cache_v1 (
            account TEXT NOT NULL,
            jid TEXT NOT NULL,
            xml TEXT NOT NULL,
            photo_hash TEXT,
            fetched_at INTEGER NOT NULL,
            PRIMARY KEY (account, jid)
        ) WITHOUT ROWID
        """,
    ]
}
