import XMPPStanzas

/// The avatar area's tables: each image once, keyed by its SHA-1 (XEP-0084 ids are content
/// hashes, so every contact with the same picture shares one row), and which image each JID
/// had when an account last looked.
enum AvatarCacheSchema {
    static let statements: [String] = [
        """
        CREATE TABLE IF NOT EXISTS avatar_images_v1 (
          hash TEXT PRIMARY KEY, type TEXT, width INTEGER, height INTEGER,
          data BLOB NOT NULL, stored_at INTEGER NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS avatar_owners_v1 (
          account TEXT NOT NULL, jid TEXT NOT NULL,
          hash TEXT NOT NULL REFERENCES avatar_images_v1(hash),
          source TEXT NOT NULL, fetched_at INTEGER NOT NULL,
          PRIMARY KEY (account, jid)) WITHOUT ROWID
        """,
        "CREATE INDEX IF NOT EXISTS avatar_owners_v1_hash ON avatar_owners_v1 (hash)",
    ]
}

/// Avatars in the cache. Callers check the SHA-1 of what they load: the cache is disposable
/// and this layer has no hash function.
public final class AvatarCache {
    /// One stored image.
    public struct Image: Sendable, Equatable {
        /// Lowercase hex SHA-1 of `data`.
        public var hash: String
        /// Content type, e.g. `image/png`, if known.
        public var type: String?
        /// Width in pixels, if known.
        public var width: Int?
        /// Height in pixels, if known.
        public var height: Int?
        /// The image bytes.
        public var data: [UInt8]

        /// Builds an image.
        public init(hash: String, type: String?, width: Int?, height: Int?, data: [UInt8]) {
            self.hash = hash
            self.type = type
            self.width = width
            self.height = height
            self.data = data
        }
    }

    /// The image a JID had, where it was found and when.
    public struct Entry: Sendable, Equatable {
        /// Whose avatar it is (bare).
        public var jid: JID
        /// The image.
        public var image: Image
        /// `pep` or `vcard`.
        public var source: String
        /// When it was fetched, in seconds since 1970.
        public var fetchedAt: Int

        /// Builds an entry.
        public init(jid: JID, image: Image, source: String, fetchedAt: Int) {
            self.jid = jid
            self.image = image
            self.source = source
            self.fetchedAt = fetchedAt
        }
    }

    private let database: Database

    /// Uses the open cache.
    public init(cache: Cache) { database = cache.database }

    /// Records that `entry.jid` has `entry.image`, as `account` saw it, in one transaction: the
    /// image is stored unless its hash is already there, and the JID's previous image goes
    /// when nobody else refers to it.
    public func store(_ entry: Entry, account: JID) throws(StorageError) {
        let image = entry.image
        try write {
            try self.database.query(
                "INSERT OR IGNORE INTO avatar_images_v1 (hash, type, width, height, data, stored_at) VALUES (?, ?, ?, ?, ?, ?)",
                [.text(image.hash), Self.text(image.type), Self.int(image.width), Self.int(image.height),
                 .blob(image.data), .int(Int64(entry.fetchedAt))])
            // A later look may know more (dimensions from metadata) than the first one did.
            try self.database.query(
                "UPDATE avatar_images_v1 SET type = coalesce(?, type), width = coalesce(?, width), height = coalesce(?, height) WHERE hash = ?",
                [Self.text(image.type), Self.int(image.width), Self.int(image.height), .text(image.hash)])
            let old = try self.hash(account: account, jid: entry.jid)
            try self.database.query(
                "INSERT OR REPLACE INTO avatar_owners_v1 (account, jid, hash, source, fetched_at) VALUES (?, ?, ?, ?, ?)",
                [.text(account.bare.description), .text(entry.jid.bare.description), .text(image.hash),
                 .text(entry.source), .int(Int64(entry.fetchedAt))])
            if let old, old != image.hash { try self.collect(old) }
        }
    }

    /// What `account` last saw as `jid`'s avatar; nil when not cached (or unreadable).
    public func load(account: JID, jid: JID) throws(StorageError) -> Entry? {
        let rows = try database.query(
            """
            SELECT o.source, o.fetched_at, i.hash, i.type, i.width, i.height, i.data
            FROM avatar_owners_v1 o JOIN avatar_images_v1 i ON i.hash = o.hash
            WHERE o.account = ? AND o.jid = ?
            """, [.text(account.bare.description), .text(jid.bare.description)])
        guard let row = rows.first, row.count == 7, let source = row[0].text, let image = Self.image(Array(row[2...])) else {
            return nil
        }
        return Entry(jid: jid.bare, image: image, source: source, fetchedAt: Int(row[1].int ?? 0))
    }

    /// The stored image with this SHA-1, whoever it belonged to (XEP-0084 §4.4: a cached copy is
    /// not fetched again).
    public func image(hash: String) throws(StorageError) -> Image? {
        let rows = try database.query("SELECT hash, type, width, height, data FROM avatar_images_v1 WHERE hash = ?",
                                      [.text(hash.lowercased())])
        return rows.first.flatMap(Self.image)
    }

    /// Forgets `jid`'s avatar as seen by `account` (and the image, if nobody else has it).
    public func forget(account: JID, jid: JID) throws(StorageError) {
        try write {
            guard let old = try self.hash(account: account, jid: jid) else { return }
            try self.database.query("DELETE FROM avatar_owners_v1 WHERE account = ? AND jid = ?",
                                    [.text(account.bare.description), .text(jid.bare.description)])
            try self.collect(old)
        }
    }

    /// How many distinct images are stored.
    public func imageCount() throws(StorageError) -> Int {
        Int(try database.query("SELECT count(*) FROM avatar_images_v1").first?.first?.int ?? 0)
    }

    private func hash(account: JID, jid: JID) throws(StorageError) -> String? {
        try database.query("SELECT hash FROM avatar_owners_v1 WHERE account = ? AND jid = ?",
                           [.text(account.bare.description), .text(jid.bare.description)]).first?.first?.text
    }

    /// Deletes image `hash` if no owner row refers to it any more.
    private func collect(_ hash: String) throws(StorageError) {
        try database.query(
            "DELETE FROM avatar_images_v1 WHERE hash = ? AND NOT EXISTS (SELECT 1 FROM avatar_owners_v1 WHERE hash = ?)",
            [.text(hash), .text(hash)])
    }

    /// Runs `body` in one transaction, keeping the typed error.
    private func write(_ body: () throws -> Void) throws(StorageError) {
        do {
            try database.transaction { try body() }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .sqlite("\(error)")
        }
    }

    private static func image(_ row: [SQLValue]) -> Image? {
        guard row.count == 5, let hash = row[0].text, let data = row[4].blob else { return nil }
        return Image(hash: hash, type: row[1].text, width: row[2].int.map { Int($0) }, height: row[3].int.map { Int($0) }, data: data)
    }

    private static func text(_ s: String?) -> SQLValue { s.map(SQLValue.text) ?? .null }
    private static func int(_ i: Int?) -> SQLValue { i.map { .int(Int64($0)) } ?? .null }
}
