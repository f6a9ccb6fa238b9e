import XMPPStanzas

/// The roster area's tables: one row per account with its XEP-0237 version and the generation
/// of the stored copy, one row per contact. Groups are joined with U+001F, a character XML
/// cannot carry, so no group name contains it. (v2: the generation; v1 tables are left unread.)
enum RosterCacheSchema {
    static let statements: [String] = [
        """
        CREATE TABLE IF NOT EXISTS roster_meta_v2 (
          account TEXT PRIMARY KEY, ver TEXT, updated INTEGER NOT NULL, generation INTEGER NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS roster_items_v2 (
          account TEXT NOT NULL, jid TEXT NOT NULL, name TEXT, subscription TEXT NOT NULL,
          ask INTEGER NOT NULL, approved INTEGER NOT NULL, groups TEXT NOT NULL,
          PRIMARY KEY (account, jid)) WITHOUT ROWID
        """,
    ]
}

/// Which stored copy of an account's roster a tool has: its version and its generation, a number
/// that changes with every write of that account's roster (by any process) and is never 0.
public struct RosterCacheStamp: Sendable, Equatable {
    /// The roster version the copy matches (nil when the server does not version it, or a push
    /// came without one).
    public var ver: String?
    /// The write that stored the copy; 0 stands for "no stored copy".
    public var generation: Int64

    public init(ver: String?, generation: Int64) {
        self.ver = ver
        self.generation = generation
    }
}

/// An account's roster as last seen on the server.
public struct CachedRoster: Sendable, Equatable {
    /// The roster version that matches `items` (nil when the server does not version rosters).
    public var ver: String?
    /// The contacts, ordered by JID.
    public var items: [RosterItem]
    /// When it was last written, in seconds since 1970.
    public var updated: Int
    /// The write that stored this copy.
    public var generation: Int64

    /// The version and generation of this copy.
    public var stamp: RosterCacheStamp { RosterCacheStamp(ver: ver, generation: generation) }
}

/// Per-account rosters in the cache. Every write is one short IMMEDIATE transaction that keeps
/// the version and the items consistent, so tools running at once never see half a roster.
///
/// Tools running at once (a `list` and a `rename`, say) each fetch a copy and see pushes: a
/// write says which stored copy it was made against (its stamp), so a copy fetched before
/// another tool's change never overwrites what that tool stored after it. The check is per
/// account: another account's writes do not count.
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
        guard let meta = try database.query("SELECT ver, updated, generation FROM roster_meta_v2 WHERE account = ?", key).first else {
            return nil
        }
        var items: [RosterItem] = []
        var unreadable = false
        // Read in place: rows as [[SQLValue]] first were half of loading a 2,000-contact roster.
        try database.forEachRow(
            "SELECT jid, name, subscription, ask, approved, groups FROM roster_items_v2 WHERE account = ? ORDER BY jid", key
        ) { row in
            guard !unreadable, let item = Self.item(from: row) else {
                unreadable = true
                return
            }
            items.append(item)
        }
        // The pages read stay cached while the tool goes on to the network: let them go.
        database.releaseMemory()
        if unreadable { return nil }
        return CachedRoster(ver: meta[0].text, items: items, updated: Int(meta[1].int ?? 0), generation: meta[2].int ?? 0)
    }

    /// The stamp of `account`'s stored roster, nil when none is cached. Cheap: one row.
    public func stamp(account: JID) throws(StorageError) -> RosterCacheStamp? {
        guard let meta = try database.query("SELECT ver, generation FROM roster_meta_v2 WHERE account = ?",
                                            [.text(account.bare.description)]).first else { return nil }
        return RosterCacheStamp(ver: meta[0].text, generation: meta[1].int ?? 0)
    }

    /// The contacts' JIDs of `account`, for shell completion.
    public func contacts(account: JID) throws(StorageError) -> [String] {
        try database.query("SELECT jid FROM roster_items_v2 WHERE account = ? ORDER BY jid",
                           [.text(account.bare.description)]).compactMap { $0.first?.text }
    }

    /// The group names used in `account`'s cached roster, sorted, for shell completion.
    public func groups(account: JID) throws(StorageError) -> [String] {
        let rows = try database.query("SELECT DISTINCT groups FROM roster_items_v2 WHERE account = ? AND groups <> ''",
                                      [.text(account.bare.description)])
        return Set(rows.compactMap { $0.first?.text }.flatMap(Self.groups(joined:))).sorted()
    }

    /// Replaces the whole roster of `account` with a fresh copy from the server, whatever is
    /// stored. Returns the copy's generation.
    @discardableResult
    public func replace(account: JID, ver: String?, items: [RosterItem], now: Int) throws(StorageError) -> Int64 {
        let key = SQLValue.text(account.bare.description)
        return try write { try store(items, key: key, ver: ver, now: now) }
    }

    /// Replaces the roster of `account` with a fresh copy from the server only while the stored
    /// copy is still the one of generation `seen` (0: while none is stored), read before the
    /// server was asked: a copy fetched before another tool's change (a rename) must not
    /// overwrite what that tool stored after it. Without roster versions (jabberd2) nothing else
    /// could tell the copies apart. Returns the new generation, or nil when the copy was not
    /// stored (the next run stores again).
    public func replace(account: JID, ver: String?, items: [RosterItem], now: Int,
                        ifGeneration seen: Int64) throws(StorageError) -> Int64? {
        let key = SQLValue.text(account.bare.description)
        return try write {
            guard try storedGeneration(key) == seen else { return nil }
            return try store(items, key: key, ver: ver, now: now)
        }
    }

    /// Applies roster pushes (each with one item; `remove` deletes it) and takes the last push's
    /// version, but only onto the copy they follow: the stored copy is still `base` (its
    /// generation), or the server named the stored copy's version `base.ver` too. If another tool
    /// stored a different copy meanwhile, that copy stays (it is a consistent snapshot too).
    /// Returns the stamp of the patched copy, or nil when the pushes were not applied. A push
    /// without a version drops the stored version.
    @discardableResult
    public func apply(account: JID, pushes: [RosterQuery], onto base: RosterCacheStamp,
                      now: Int) throws(StorageError) -> RosterCacheStamp? {
        guard !pushes.isEmpty else { return base }
        let key = SQLValue.text(account.bare.description)
        return try write {
            guard let meta = try database.query("SELECT ver, generation FROM roster_meta_v2 WHERE account = ?", [key]).first
            else { return nil }
            let sameCopy = meta[1].int == base.generation
            let sameVersion = base.ver != nil && meta[0].text == base.ver
            guard sameCopy || sameVersion else { return nil }
            var ver = base.ver
            for push in pushes {
                for item in push.items {
                    if item.subscription == .remove {
                        try database.query("DELETE FROM roster_items_v2 WHERE account = ? AND jid = ?",
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
            return RosterCacheStamp(ver: ver, generation: try setMeta(key: key, ver: ver, now: now))
        }
    }

    /// Forgets the roster of `account`.
    public func remove(account: JID) throws(StorageError) {
        let key = SQLValue.text(account.bare.description)
        try write {
            try database.query("DELETE FROM roster_items_v2 WHERE account = ?", [key])
            try database.query("DELETE FROM roster_meta_v2 WHERE account = ?", [key])
        }
    }

    private func storedGeneration(_ key: SQLValue) throws -> Int64 {
        try database.query("SELECT generation FROM roster_meta_v2 WHERE account = ?", [key]).first?[0].int ?? 0
    }

    private func store(_ items: [RosterItem], key: SQLValue, ver: String?, now: Int) throws -> Int64 {
        try database.query("DELETE FROM roster_items_v2 WHERE account = ?", [key])
        try insert(items, key: key)
        return try setMeta(key: key, ver: ver, now: now)
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

    /// Writes the account's version and a new generation: one past the largest in the file, so
    /// a generation is not used twice while its account's row exists.
    private func setMeta(key: SQLValue, ver: String?, now: Int) throws -> Int64 {
        let rows = try database.query(
            "INSERT INTO roster_meta_v2 (account, ver, updated, generation) "
                + "VALUES (?, ?, ?, (SELECT COALESCE(MAX(generation), 0) + 1 FROM roster_meta_v2)) "
                + "ON CONFLICT(account) DO UPDATE SET ver = excluded.ver, updated = excluded.updated, "
                + "generation = excluded.generation RETURNING generation",
            [key, ver.map(SQLValue.text) ?? .null, .int(Int64(now))])
        guard let generation = rows.first?.first?.int else { throw StorageError.sqlite("the roster's generation was not returned") }
        return generation
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
            try database.query("INSERT OR REPLACE INTO roster_items_v2 "
                               + "(account, jid, name, subscription, ask, approved, groups) VALUES " + placeholders, values)
            start += Self.rowsPerInsert
        }
    }

    /// The groups joined by `separator`, empty names left out, as `split(separator:)` gives them.
    /// Split on the byte: splitting on a Character walks grapheme clusters, and the UTF8View's
    /// generic split makes Substrings first.
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
