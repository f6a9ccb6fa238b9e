import Glibc

/// The batch journal: one SQLite file (WAL, mode 0600) recording where every row of a batch
/// stands. Each change is committed before the tool acts on it or reports it, so a crash or
/// `kill -9` loses nothing: a resumed run neither repeats a finished row nor skips one. A lock
/// file next to it keeps two runs off one journal.
public final class BatchJournal {
    /// How to treat a journal already at the path.
    public enum Start: Sendable {
        /// Start a new run: a finished journal is replaced, an unfinished one refused.
        case fresh
        /// Continue the recorded run (a missing journal starts a new one).
        case resume
        /// Continue an unfinished run of the same identity; replace a finished one; refuse an
        /// unfinished one of another identity (`xmpp-register sync`, which has no --resume).
        case continueUnfinished
    }

    /// The SQLite file.
    public let path: String
    /// True when an existing run is continued.
    public let resumed: Bool
    /// The unfinished run of another batch (or of this one) that this run replaced because the
    /// server had done nothing for it: what made it different, or empty when it was this batch.
    /// Nil when no unfinished journal was replaced.
    public private(set) var replacedUntouched: [BatchIdentityDifference]?
    /// The run of this CSV resumed with --admin though it ran without (or the other way round):
    /// what differed. Nil otherwise.
    public private(set) var resumedAcross: [BatchIdentityDifference]?
    let database: Database
    private let lockDescriptor: Int32

    /// Opens or creates the journal at `path` for the batch named by `identity` (a digest of
    /// the input and the options that shape the plan). A journal whose recorded identity this
    /// version does not read is another batch (`BatchIdentityDifference.otherVersion`).
    public init(path: String, identity: BatchIdentity, start: Start) throws(JournalError) {
        self.path = path
        lockDescriptor = try BatchJournal.lock(path)
        do {
            if access(path, F_OK) == 0 {
                let existing = try Database(path: path, durability: .full)
                let recordedText = try BatchJournal.meta(existing, "identity") ?? ""
                let recorded = BatchIdentity(text: recordedText)
                let finished = try BatchJournal.meta(existing, "finished") == "1"
                let passwords = try BatchJournal.passwordCount(existing)
                let differences = BatchIdentity.differences(recorded: recorded, recordedText: recordedText, current: identity)
                // A run the server did nothing for (stopped at its first answer, say, by a server
                // closed to in-band registration) holds nothing worth keeping: it is replaced
                // rather than blocking the corrected run.
                // (The same batch's unfinished run is simply resumed: --resume says so.)
                let untouched = !finished && recorded != identity && BatchJournal.serverUntouched(existing)
                var start = start
                if start == .continueUnfinished { start = finished ? .fresh : .resume }
                switch start {
                case .continueUnfinished: break
                case .resume:
                    // The same rows created by the administrator's commands instead of in-band (or
                    // back): the engines take over a run of either (a row left sent is checked by
                    // logging in first), so --resume continues it with this run's choice.
                    // (One the server did nothing for is replaced instead: every row starts afresh.)
                    let acrossAdmin = !finished && !untouched && BatchIdentity.differOnlyInAdmin(recorded, identity)
                    if acrossAdmin { resumedAcross = differences }
                    if recorded == identity || acrossAdmin {
                        try JournalSchema.upgrade(existing)
                        database = existing
                        resumed = true
                        return
                    }
                    guard untouched else {
                        throw JournalError.mismatch(path: path, recorded: recordedText, passwords: passwords, differences: differences)
                    }
                    replacedUntouched = differences
                case .fresh:
                    if !finished && !untouched {
                        let (done, total) = try BatchJournal.progress(existing)
                        throw JournalError.unfinished(path: path, done: done, total: total, sameBatch: recorded == identity,
                                                      passwords: passwords, differences: differences,
                                                      resumable: BatchIdentity.differOnlyInAdmin(recorded, identity))
                    }
                    if untouched { replacedUntouched = differences }
                    // A finished run wipes its passwords once the report holds them; if it could
                    // not, this file is their only copy.
                    if finished && passwords > 0 { throw JournalError.holdsPasswords(path: path, count: passwords) }
                }
                for suffix in FileTrust.sqliteSuffixes { try SecureFile.remove(path + suffix) }
            }
            database = try BatchJournal.create(path, identity: identity)
            resumed = false
        } catch let error as JournalError {
            _ = close(lockDescriptor)
            throw error
        } catch let error as StorageError {
            _ = close(lockDescriptor)
            throw .storage(error)
        } catch {
            _ = close(lockDescriptor)
            throw .storage(.sqlite("\(error)"))
        }
    }

    deinit { _ = close(lockDescriptor) }

    /// True when `path` holds a journal whose run has not finished (read only; no lock taken):
    /// `xmpp-register sync` then continues that run with the plan it recorded.
    public static func isUnfinished(_ path: String) -> Bool {
        guard access(path, F_OK) == 0, let db = try? Database(path: path, durability: .full) else { return false }
        return (try? meta(db, "finished")) != "1"
    }

    /// Every recorded row, by line.
    public func entries() throws(JournalError) -> [JournalEntry] {
        // Each row read in place into its entry, never a `[[SQLValue]]` of every row first.
        var entries: [JournalEntry] = []
        do {
            try database.forEachRow(
                "SELECT line, jid, status, error, retryable, uncertain, attempts, generated_password, profile, password_kept, note, roster FROM journal_rows ORDER BY line"
            ) { row in entries.append(BatchJournal.entry(row)) }
        } catch {
            throw .storage(error)
        }
        return entries
    }

    private static func entry(_ r: SQLRow) -> JournalEntry {
        guard r.columnCount == 12 else { return JournalEntry(line: 0, jid: "", status: .pending) }
        let status = JournalStatus(rawValue: r.text(2) ?? "") ?? .pending
        return JournalEntry(line: Int(r.int(0) ?? 0), jid: r.text(1) ?? "", status: status, error: r.text(3),
                            retryable: r.int(4) == 1, uncertain: r.int(5) == 1, attempts: Int(r.int(6) ?? 0),
                            generatedPassword: r.text(7), profile: r.text(8), passwordKept: r.int(9) == 1, note: r.text(10), roster: r.text(11))
    }

    /// Records the planned rows of a new run, in one transaction.
    public func insert(_ entries: [JournalEntry]) throws(JournalError) {
        let now = BatchJournal.now
        try transaction { () throws(StorageError) in
            for e in entries {
                try database.query(
                    "INSERT INTO journal_rows (line, jid, status, error, retryable, uncertain, attempts, generated_password, profile, password_kept, note, roster, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    [.int(Int64(e.line)), .text(e.jid), .text(e.status.rawValue), BatchJournal.optional(e.error),
                     .int(e.retryable ? 1 : 0), .int(e.uncertain ? 1 : 0), .int(Int64(e.attempts)),
                     BatchJournal.optional(e.generatedPassword), BatchJournal.optional(e.profile), .int(e.passwordKept ? 1 : 0),
                     BatchJournal.optional(e.note), BatchJournal.optional(e.roster), .int(now)])
            }
        }
    }

    /// Marks rows as sent, before their requests are written: from here on an answer that never
    /// comes leaves them uncertain rather than pending. `generated` holds the passwords made for
    /// these requests (a row keeps the first one it is given): they are on disk before the server
    /// can set them.
    public func markSent(lines: [Int], generated: [Int: String] = [:]) throws(JournalError) {
        guard !lines.isEmpty else { return }
        let now = BatchJournal.now
        try transaction { () throws(StorageError) in
            for line in lines {
                try database.query(
                    "UPDATE journal_rows SET status='sent', attempts=attempts+1, generated_password=COALESCE(generated_password, ?), updated_at=? WHERE line=?",
                    [BatchJournal.optional(generated[line]), .int(now), .int(Int64(line))])
            }
        }
    }

    /// Records several rows' new states in one transaction.
    public func record(_ updates: [JournalUpdate]) throws(JournalError) {
        guard !updates.isEmpty else { return }
        let now = BatchJournal.now
        try transaction { () throws(StorageError) in
            for u in updates {
                // A password the server never set is dropped, unless an earlier report gave it.
                try database.query(
                    """
                    UPDATE journal_rows SET status=?, error=?, retryable=?, uncertain=?, profile=COALESCE(?, profile), note=?,
                        generated_password=CASE WHEN (? AND password_kept=0) OR ? THEN NULL ELSE generated_password END, updated_at=?
                    WHERE line=?
                    """,
                    [.text(u.status.rawValue), BatchJournal.optional(u.error), .int(u.retryable ? 1 : 0),
                     .int(u.uncertain ? 1 : 0), BatchJournal.optional(u.profile), BatchJournal.optional(u.note),
                     .int(u.dropPassword ? 1 : 0), .int(u.dropKeptPassword ? 1 : 0), .int(now), .int(Int64(u.line))])
            }
        }
    }

    /// Records where rows' rosters stand, in one transaction; a row's `error` is replaced when one
    /// is given (a roster that could not be set), and kept otherwise.
    public func recordRoster(_ updates: [(line: Int, state: String, error: String?)]) throws(JournalError) {
        guard !updates.isEmpty else { return }
        let now = BatchJournal.now
        try transaction { () throws(StorageError) in
            for u in updates {
                try database.query("UPDATE journal_rows SET roster=?, error=COALESCE(?, error), updated_at=? WHERE line=?",
                                   [.text(u.state), BatchJournal.optional(u.error), .int(now), .int(Int64(u.line))])
            }
        }
    }

    /// Marks the run finished (every row has an outcome) or not.
    public func setFinished(_ finished: Bool) throws(JournalError) {
        do {
            try database.query("INSERT OR REPLACE INTO journal_meta (key, value) VALUES ('finished', ?)", [.text(finished ? "1" : "0")])
        } catch {
            throw .storage(error)
        }
    }

    // MARK: - Internals

    private static func create(_ path: String, identity: BatchIdentity) throws(StorageError) -> Database {
        // SQLite creates files 0644 (less umask); the journal may hold generated passwords.
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        _ = close(fd)
        let db = try Database(path: path, durability: .full)
        try db.execute(JournalSchema.statements.joined(separator: ";\n"))
        try db.query("INSERT OR REPLACE INTO journal_meta (key, value) VALUES ('identity', ?)", [.text(identity.text)])
        try db.query("INSERT OR REPLACE INTO journal_meta (key, value) VALUES ('finished', '0')")
        return db
    }

    static func lock(_ path: String) throws(JournalError) -> Int32 {
        // A separate file: closing any descriptor of the database itself would drop SQLite's locks.
        let lockPath = path + ".lock"
        let fd: Int32
        do { fd = try FileTrust.openLockFile(lockPath) } catch { throw .storage(error) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            _ = close(fd)
            throw .locked(path: path)
        }
        return fd
    }

    private static func meta(_ db: Database, _ key: String) throws(StorageError) -> String? {
        // A file that is not a journal has no such table: treat it as a different batch.
        guard (try? db.query("SELECT 1 FROM journal_meta LIMIT 1")) != nil else { return nil }
        return try db.query("SELECT value FROM journal_meta WHERE key=?", [.text(key)]).first?.first?.text
    }

    /// True when the server has done nothing for this journal's run (`serverUntouched(_:)`): a new
    /// run of any batch may replace it.
    public func serverUntouched() -> Bool {
        BatchJournal.serverUntouched(database)
    }

    /// True when the journal's run left nothing the server did: every row is still to do, failed
    /// or invalid, none was sent without a definitive answer, and no row holds a password
    /// generated here (one carried over from the report is in that report too).
    static func serverUntouched(_ db: Database) -> Bool {
        // A journal older than these columns (or not a journal at all) is never called untouched.
        let touched = try? db.query(
            """
            SELECT count(*) FROM journal_rows WHERE status NOT IN ('pending', 'failed', 'invalid') OR uncertain != 0
                OR (generated_password IS NOT NULL AND password_kept = 0) OR roster IS NOT NULL
            """)
        return touched?.first?.first?.int == 0
    }

    private static func progress(_ db: Database) throws(StorageError) -> (Int, Int) {
        let rows = (try? db.query("SELECT status FROM journal_rows")) ?? []
        let done = rows.filter { JournalStatus(rawValue: $0.first?.text ?? "")?.isFinal ?? false }.count
        return (done, rows.count)
    }

    func transaction(_ body: () throws(StorageError) -> Void) throws(JournalError) {
        if let error = BatchJournal.attempt(database, body) { throw .storage(error) }
    }

    /// Runs `body` in one transaction; the error, if any (a helper keeps typed and untyped throws apart).
    private static func attempt(_ db: Database, _ body: () throws(StorageError) -> Void) -> StorageError? {
        do {
            try db.execute("BEGIN IMMEDIATE")
        } catch {
            return error
        }
        do {
            try body()
            try db.execute("COMMIT")
            return nil
        } catch {
            try? db.execute("ROLLBACK")
            return error
        }
    }

    static func optional(_ s: String?) -> SQLValue { s.map(SQLValue.text) ?? .null }

    static var now: Int64 { Int64(time(nil)) }
}
