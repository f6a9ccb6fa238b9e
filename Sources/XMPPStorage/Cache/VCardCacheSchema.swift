/// The vCard cache's table: one row per (account, JID) with the card as vcard-temp XML, the
/// vCard4 node's unmapped properties (a vCard4 document of them, NULL for none), the SHA-1 of its
/// photo (XEP-0153's avatar hash) and when it was fetched. (v2: the vCard4 properties; v1 tables
/// are left unread.)
enum VCardCacheSchema {
    static let statements: [String] = [
        """
        CREATE TABLE IF NOT EXISTS vcard_cache_v2 (
            account TEXT NOT NULL,
            jid TEXT NOT NULL,
            xml TEXT NOT NULL,
            vcard4_extras TEXT,
            photo_hash TEXT,
            fetched_at INTEGER NOT NULL,
            PRIMARY KEY (account, jid)
        ) WITHOUT ROWID
        """,
    ]
}
