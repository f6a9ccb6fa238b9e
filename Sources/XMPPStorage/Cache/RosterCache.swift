import XMPPStanzas

/// The roster area's tables: one row per account with its XEP-0237 version, one row per contact.
/// Groups are joined with U+001F, a character XML cannot carry, so no group name contains it.
enum RosterCacheSchema {
    static let statements: [String] = [
        """
        CREATE TABLE IF NOT EXISTS roster_meta_v1 (
          account TEXT PRIMARY KEY, ver TEXT, updated INTEGER NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS roster_items_v1 (
          account TEXT NOT NULL, jid TEXT NOT NULL, name TEXT, subscription TEXT NOT NULL,
          ask INTEGER NOT NULL, approved INTEGER NOT NULL, groups TEXT NOT NULL,
          PRIMARY KEY (account, jid)) WITHOUT ROWID
        """,
    ]
}

/// An account's roster as last seen on the server.
public struct CachedRoster: Sendable, Equatable {
    /// The roster version that matches `items` (nil when the server does not version rosters).
    public var ver: String?
    /// The contacts, ordered by JID.
    public var items: [RosterItem]
    /// When it was last written, in seconds since 1970.
    public var updated: Int
}

/// Per-account rosters in the cache. Every write is one short IMMEDIATE transaction that keeps
/// the version and the items consistent, so tools running at once never see half a roster.
public final class RosterCache {
    private let database: Database
    private static let separator = "\u{1F}"
    private static let rowsPerInsert = 100

    /// Uses the open cache.
    public init(cache: Cache) { database = cache.database }

    /// The cached roster of `account`, or nil when there is none (or a row is unreadable).
    public func load(account: JID) throws(StorageError) -> CachedRoster? {
        let key = [SQLValue.text(account.bare.description)]
        // One read transaction: the version and the items come from the same snapshot.
        try database.execute("BEGIN")
        defer { try? database.execute("COMMIT") }
        guard let meta = try database.query("SELECT ver, updated FROM roster_meta_v1 WHERE account = ?", key).first else {
            return nil
        }
        var items: [RosterItem] = []
        var unreadable = false
        // Read in place: rows as [[SQLValue]] first were half of loading a 2,000-contact roster.
        try database.forEachRow(
            "SELECT jid, name, subscription, ask, approved, groups FROM roster_items_v1 WHERE account = ? ORDER BY jid", key
        ) { row in
            guard !unreadable, let item = Self.item(from: row) else {
                unreadable = true
                return
            }
            items.append(item)
        }
        if unreadable { return nil }
        return CachedRoster(ver: meta[0].text, items: items, updated: Int(meta[1].int ?? 0))
    }

    /// The stored version of `account`'s roster: nil when no roster is cached, `.some(nil)` when
    /// one is cached without a version. Cheap: one row.
    public func version(account: JID) throws(StorageError) -> String?? {
        guard let meta = try database.query("SELECT ver FROM roster_meta_v1 WHERE account = ?",
                                            [.text(account.bare.description)]).first else { return nil }
        return .some(meta[0].text)
    }

    /// The contacts' JIDs of `account`, for shell completion.
    public func contacts(account: JID) throws(StorageError) -> [String] {
        try database.query("SELECT jid FROM roster_items_v1 WHERE account = ? ORDER BY jid",
                           [.text(account.bare.description)]).compactMap { $0.first?.text }
    }

    /// The group names used in `account`'s cached roster, sorted, for shell completion.
    public func groups(account: JID) throws(StorageError) -> [String] {
        let rows = try database.query("SELECT DISTINCT groups FROM roster_items_v1 WHERE account = ? AND groups <> ''",
                                      [.text(account.bare.description)])
        return Set(rows.compactMap { $0.first?.text }.flatMap(Self.groups(joined:))).sorted()
    }

    /// A marker of the cache file's state, for `replace(…unlessChangedSince:)`: take it before
    /// asking the server.
    public func changeMarker() throws(StorageError) -> Int64 { try database.dataVersion() }

    /// Replaces the whole roster of `account` with a fresh copy from the server. With a marker,
    /// only when no other process has written the cache since it was taken: a copy fetched
    /// before another tool's change (a rename, say) must not overwrite what that tool stored
    /// after it. Without roster versions (jabberd2) nothing else could tell the copies apart;
    /// the check is file-wide, so a concurrent write of anything skips this store (the next run
    /// stores again), unless the account has no cached roster at all. Returns whether the copy
    /// was stored.
    @discardableResult
    public func replace(account: JID, ver: String?, items: [RosterItem], now: Int,
                        unlessChangedSince marker: Int64? = nil) throws(StorageError) -> Bool {
        let key = SQLValue.text(account.bare.description)
        return try write {
            if let marker, try database.dataVersion() != marker,
               try !database.query("SELECT 1 FROM roster_meta_v1 WHERE account = ?", [key]).isEmpty {
                return false
            }
            try database.query("DELETE FROM roster_items_v1 WHERE account = ?", [key])
            try insert(items, key: key)
            try setMeta(key: key, ver: ver, now: now)
            return true
        }
    }

    /// Applies roster pushes (each with one item; `remove` deletes it) and takes the last push's
    /// version, but only when the stored version is still `expectedVer`: if another tool wrote a
    /// different copy meanwhile, that copy stays (it is a consistent snapshot too). Returns
    /// whether the pushes were applied. A push without a version drops the stored version.
    @discardableResult
    public func apply(account: JID, pushes: [RosterQuery], expectedVer: String?, now: Int) throws(StorageError) -> Bool {
        guard !pushes.isEmpty else { return true }
        let key = SQLValue.text(account.bare.description)
        return try write {
            let meta = try database.query("SELECT ver FROM roster_meta_v1 WHERE account = ?", [key]).first
            guard let meta, meta[0].text == expectedVer else { return false }
            var ver = expectedVer
            for push in pushes {
                for item in push.items {
                    if item.subscription == .remove {
                        try database.query("DELETE FROM roster_items_v1 WHERE account = ? AND jid = ?",
                                           [key, .text(item.jid.description)])
                    } else {
                        try insert([item], key: key)
                    }
                }
                // A push without a version on a versioned roster (jabberd2 2.7 sends them, and
                // keeps the version across renames): the stored version no longer names this
                // copy, so the next fetch must be a full one.
                if let v = push.ver { ver = v } else { ver = nil }
            }
            try setMeta(key: key, ver: ver, now: now)
            return true
        }
    }

    /// Forgets the roster of `account`.
    public func remove(account: JID) throws(StorageError) {
        let key = SQLValue.text(account.bare.description)
        try write {
            try database.query("DELETE FROM roster_items_v1 WHERE account = ?", [key])
            try database.query("DELETE FROM roster_meta_v1 WHERE account = ?", [key])
        }
    }

    private func write<T>(_ body: () throws -> T) throws(StorageError) -> T {
        do {
            return try database.transaction(body)
        } catch let error as StorageError {
            throw error
        } catch {
            throw .sqlite("\(error)")
        }
    }

    private func setMeta(key: SQLValue, ver: String?, now: Int) throws {
        try database.query(
            "INSERT INTO roster_meta_v1 (account, ver, updated) VALUES (?, ?, ?) "
                + "ON CONFLICT(account) DO UPDATE SET ver = excluded.ver, updated = excluded.updated",
            [key, ver.map(SQLValue.text) ?? .null, .int(Int64(now))])
    }

    /// Inserts (or replaces) items with multi-row statements, a hundred rows per statement.
    private func insert(_ items: [RosterItem], key: SQLValue) throws {
        var start = 0
        while start < items.count {
            let chunk = items[start..<min(start + Self.rowsPerInsert, items.count)]
            let placeholders = Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
            var values: [SQLValue] = []
            values.reserveCapacity(chunk.count * 7)
            for item in chunk {
                values += [key, .text(item.jid.description), item.name.map(SQLValue.text) ?? .null,
                           .text(item.subscription.rawValue), .int(item.ask ? 1 : 0), .int(item.approved ? 1 : 0),
                           .text(item.groups.joined(separator: Self.separator))]
            }
            try database.query("INSERT OR REPLACE INTO roster_items_v1 "
                               + "(account, jid, name, subscription, ask, approved, groups) VALUES " + placeholders, values)
            start += Self.rowsPerInsert
        }
    }

    /// The groups joined by `separator`, empty names left out, as `split(separator:)` gives them.
    /// Split on the byte: splitting on a Character walks grapheme clusters (4,000 instructions a
    /// row), and the UTF8View's generic split made Substrings first (800).
    static func groups(joined: String) -> [String] {
        let split = joined.utf8.withContiguousStorageIfAvailable { bytes in
            var groups: [String] = []
            var start = 0
            for i in bytes.indices where bytes[i] == 0x1F {
                if i > start { groups.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)) }
                start = i + 1
            }
            if start < bytes.count { groups.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)) }
            return groups
        }
        return split ?? joined.utf8.split(separator: 0x1F).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func item(from row: SQLRow) -> RosterItem? {
        guard row.columnCount == 6, let jidText = row.text(0), let jid = try? JID(jidText),
              let subscription = row.text(2).flatMap(Subscription.init(rawValue:)) else { return nil }
        let groups = row.text(5).map(Self.groups(joined:)) ?? []
        return RosterItem(jid: jid, name: row.text(1), subscription: subscription, ask: row.int(3) == 1,
                          approved: row.int(4) == 1, groups: groups)
    }
}
