import XMPPStanzas

/// Cached vCards, keyed by the account that fetched them and the card's bare JID, with the
/// photo's SHA-1 (the XEP-0153 avatar hash) so avatar code can compare without decoding.
public struct VCardCache {
    /// One cached card.
    public struct Entry: Sendable, Equatable {
        /// Whose card it is.
        public var jid: JID
        /// The card.
        public var card: VCard
        /// The vCard4 node's unmapped properties. Writing nil keeps what is stored (they were not
        /// read); loading gives nil when none are stored.
        public var vcard4Extras: VCard4Extras?
        /// Lowercase hex SHA-1 of the photo bytes, if the card has an embedded photo.
        public var photoHash: String?
        /// When it was fetched, in seconds since 1970.
        public var fetchedAt: Int

        /// Builds an entry.
        public init(jid: JID, card: VCard, vcard4Extras: VCard4Extras? = nil, photoHash: String?, fetchedAt: Int) {
            self.jid = jid
            self.card = card
            self.vcard4Extras = vcard4Extras
            self.photoHash = photoHash
            self.fetchedAt = fetchedAt
        }
    }

    private let database: Database

    /// The vCard area of `cache`.
    public init(cache: Cache) { database = cache.database }

    /// Stores (replacing) `entries` as seen by `account`, in one transaction.
    public func store(_ entries: [Entry], account: JID) throws(StorageError) {
        guard !entries.isEmpty else { return }
        do {
            try database.transaction {
                for e in entries {
                    let extras: SQLValue = e.vcard4Extras.map { $0.properties.isEmpty ? .null : .text($0.xml) } ?? .null
                    try database.query(
                        "INSERT INTO vcard_cache_v2 (account, jid, xml, vcard4_extras, photo_hash, fetched_at) "
                            + "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (account, jid) DO UPDATE SET xml = excluded.xml, "
                            + "vcard4_extras = " + (e.vcard4Extras == nil ? "vcard4_extras" : "excluded.vcard4_extras")
                            + ", photo_hash = excluded.photo_hash, fetched_at = excluded.fetched_at",
                        [.text(account.bare.description), .text(e.jid.bare.description), .text(e.card.xml), extras,
                         e.photoHash.map(SQLValue.text) ?? .null, .int(Int64(e.fetchedAt))])
                }
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .sqlite("\(error)")
        }
    }

    /// The card of `jid` as `account` last fetched it; nil when not cached (or unreadable: the
    /// cache is disposable).
    public func load(account: JID, jid: JID) throws(StorageError) -> Entry? {
        let rows = try database.query(
            "SELECT xml, photo_hash, fetched_at, vcard4_extras FROM vcard_cache_v2 WHERE account = ? AND jid = ?",
            [.text(account.bare.description), .text(jid.bare.description)])
        guard let row = rows.first, row.count == 4, let xml = row[0].text, let card = try? VCard(xml: xml) else { return nil }
        var extras: VCard4Extras?
        if let text = row[3].text {
            guard let read = try? VCard4Extras(xml: text) else { return nil }
            extras = read
        }
        return Entry(jid: jid.bare, card: card, vcard4Extras: extras, photoHash: row[1].text, fetchedAt: Int(row[2].int ?? 0))
    }

    /// The cached photo hash of `jid`'s card, if any.
    public func photoHash(account: JID, jid: JID) throws(StorageError) -> String? {
        try database.query("SELECT photo_hash FROM vcard_cache_v2 WHERE account = ? AND jid = ?",
                           [.text(account.bare.description), .text(jid.bare.description)]).first?.first?.text
    }

    /// Forgets `jid`'s card.
    public func remove(account: JID, jid: JID) throws(StorageError) {
        try database.query("DELETE FROM vcard_cache_v2 WHERE account = ? AND jid = ?",
                           [.text(account.bare.description), .text(jid.bare.description)])
    }

    /// Whose cards `account` has cached, sorted.
    public func jids(account: JID) throws(StorageError) -> [JID] {
        try database.query("SELECT jid FROM vcard_cache_v2 WHERE account = ? ORDER BY jid", [.text(account.bare.description)])
            .compactMap { $0.first?.text.flatMap { try? JID($0) } }
    }

    /// How many cards `account` has cached.
    public func count(account: JID) throws(StorageError) -> Int {
        Int(try database.query("SELECT count(*) FROM vcard_cache_v2 WHERE account = ?",
                               [.text(account.bare.description)]).first?.first?.int ?? 0)
    }
}
