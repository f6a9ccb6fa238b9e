import Glibc
import TextFormats
import XMPPStorage

/// The `--report FILE` CSV, rebuilt from the journal so it is complete whatever happened to the
/// process: `line,jid,status,error,profile`, then `roster` when the batch has a contacts column,
/// then `password` when the batch has generated (or carried over) passwords, then `note`, then
/// the row's own `name` and `groups` when the CSV has such columns (`ReportPeople`), then
/// `handed_out` once `xmpp-register handout` has printed slips from the report (`HandoutStamps`). Written atomically with mode 0600 (it may hold passwords).
enum BatchReport {
    /// The report's bytes for `entries` (one row each, by line).
    /// With `invites` (`--invite`), the secret column is the invite instead of a password: `invite`
    /// (its xmpp: URI) and `landing_page` (its web page, empty when the server has none).
    /// `people` adds the row's own name and groups at the end (`ReportPeople`). `carried`:
    /// passwords of accounts the CSV no longer lists, kept from the earlier report as rows of
    /// status `kept` after the CSV's (no line).
    static func csv(_ entries: [JournalEntry], includePasswords: Bool, invites: Bool = false, people: ReportPeople = ReportPeople(),
                    carried: [String: String] = [:], stamps: HandoutStamps = HandoutStamps(),
                    sync: SyncReportColumns = SyncReportColumns()) -> [UInt8] {
        var text: [UInt8] = []
        write(entries, includePasswords: includePasswords, invites: invites, people: people, carried: carried, stamps: stamps,
              sync: sync) { record in text += record.utf8 }
        return text
    }

    /// The report as `csv` makes it, handed to `emit` a record at a time (the header first), so
    /// a report of every row is never built whole in memory (`SecretFileWriter` writes it).
    static func write<E: Error>(_ entries: [JournalEntry], includePasswords: Bool, invites: Bool = false,
                                people: ReportPeople = ReportPeople(), carried: [String: String] = [:],
                                stamps: HandoutStamps = HandoutStamps(), sync: SyncReportColumns = SyncReportColumns(),
                                emit: (String) throws(E) -> Void) throws(E) {
        let secret = invites ? ["invite", "landing_page"] : includePasswords ? ["password"] : []
        let rosters = entries.contains { $0.roster != nil }
        // `handed_out` (when the earlier report had it) comes last: the other columns keep their places.
        let stamped = stamps.present ? [HandoutStamps.column] : []
        // Built a part at a time: as one expression of `+`s Debian 13's Swift 6.0 gave up type-checking it.
        var header: [String] = ["line", "jid", "status", "error", "profile"]
        if rosters { header.append("roster") }
        header += secret
        header.append("note")
        header += people.header
        header += sync.header
        header += stamped
        try emit(record(header))
        // The journal gives its entries by line already: sorted (a copy) only when they are not.
        let byLine = zip(entries, entries.dropFirst()).allSatisfy { $0.line < $1.line } ? entries : entries.sorted { $0.line < $1.line }
        for e in byLine {
            var fields = [String(e.line), e.jid, e.status.rawValue, e.error ?? "", profileText(e.profile)]
            if rosters { fields.append(e.roster ?? "") }
            if invites {
                let invite = InviteSecret(journalText: e.generatedPassword)
                fields += [invite?.uri ?? "", invite?.landingPage ?? ""]
            } else if includePasswords { fields.append(e.generatedPassword ?? "") }
            fields.append(e.note ?? "")
            let shown = invites ? InviteSecret(journalText: e.generatedPassword)?.uri : sync.shown(jid: e.jid, password: e.generatedPassword)
            let stamp = stamps.present ? [stamps.stamp(jid: e.jid, secret: shown)] : []
            fields += people.fields(line: e.line)
            fields += sync.fields(jid: e.jid, password: e.generatedPassword, status: e.status.rawValue)
            fields += stamp
            try emit(record(fields))
        }
        for (jid, secret) in carried.sorted(by: { $0.key < $1.key }) {
            var fields = ["", jid, "kept", "", ""]
            if rosters { fields.append("") }
            if invites {
                let invite = InviteSecret(journalText: secret)
                fields += [invite?.uri ?? "", invite?.landingPage ?? ""]
            } else { fields.append(secret) }
            fields.append("not in this CSV: its password is kept from the earlier report")
            let shown = invites ? InviteSecret(journalText: secret)?.uri : sync.shown(jid: jid, password: secret)
            let stamp = stamps.present ? [stamps.stamp(jid: jid, secret: shown)] : []
            fields += people.header.map { _ in "" }
            fields += sync.fields(jid: jid, password: secret, status: "kept")
            fields += stamp
            try emit(record(fields))
        }
    }

    /// One row of the report. Administrators `cat`, `column -t` and print reports, so each
    /// field is written as the terminal output shows text (`TerminalText`): C0 and C1 controls
    /// (U+009B is CSI to many terminals), DEL, the bidirectional controls and the line and
    /// paragraph separators become visible escapes (`\n`, `U+202E`); then `CSVWriter` keeps
    /// formulas from spreadsheets. Names and groups come from the input, errors and notes from
    /// servers: none of it reaches a terminal raw through a report.
    static func record(_ fields: [String]) -> String {
        CSVWriter.record(fields.map { TerminalText.escaped($0) })
    }

    /// `applied`, `pending: nickname avatar`, or empty.
    static func profileText(_ journalText: String?) -> String {
        switch ProfileState(journalText: journalText) {
        case nil: return ""
        case .applied: return "applied"
        case .pending(let columns): return "pending: " + columns.joined(separator: " ")
        }
    }

    /// The passwords an existing report at `path` holds, by JID (none when there is no file, or
    /// it has no password column). A file that cannot be read as a report is refused rather
    /// than overwritten: it might hold passwords in a shape this reader does not know; so is one
    /// that is a symlink, belongs to another user or that others can write (`FileTrust`).
    static func knownPasswords(at path: String) throws(BatchError) -> [String: String] {
        let bytes: [UInt8]?
        // A report someone else planted (or can edit) would set the passwords of the accounts
        // this batch creates: only the user's own file, writable by nobody else, is believed.
        do { bytes = try SecureFile.read(path, trusted: true, maxBytes: 256 << 20) } catch {
            throw .unreadableReport(path: path, reason: error.description)
        }
        guard let bytes, !bytes.isEmpty else { return [:] }
        let records: [CSVRecord]
        do { records = try CSVReader.parse(bytes) } catch { throw .notAReport(path: path, reason: "\(error)") }
        guard let header = records.first?.fields else { return [:] }
        guard let passwordColumn = header.firstIndex(of: "password") else { return [:] }
        guard let jidColumn = header.firstIndex(of: "jid") else { throw .notAReport(path: path, reason: "no jid column") }
        var known: [String: String] = [:]
        for record in records.dropFirst() where record.fields.count > max(jidColumn, passwordColumn) {
            let password = CSVWriter.restored(record.fields[passwordColumn])
            if !password.isEmpty { known[CSVWriter.restored(record.fields[jidColumn])] = password }
        }
        return known
    }

    /// The records of the report at `path`, its fields restored (`CSVWriter.restored`); nil
    /// when there is no such file. Read as spreadsheets' CSV is (`CSVReader.table`), so that a
    /// report split by group, in the input's dialect, reads too. Only the user's own file,
    /// writable by nobody else, in a directory nobody else can write in, is believed: a planted
    /// report would hand out its passwords (`FileTrust`).
    static func restoredRecords(at path: String) throws(BatchError) -> [CSVRecord]? {
        try restoredReport(at: path)?.records
    }

    /// The same with the file's dialect.
    static func restoredReport(at path: String) throws(BatchError) -> (records: [CSVRecord], dialect: CSVDialect)? {
        do { try FileTrust.requireSafeDirectory(directory(of: path)) } catch { throw .unsafeReport(error) }
        let bytes: [UInt8]?
        do { bytes = try SecureFile.read(path, trusted: true, maxBytes: 256 << 20) } catch {
            throw .unreadableReport(path: path, reason: error.description)
        }
        guard let bytes else { return nil }
        var records: [CSVRecord]
        do { records = try CSVReader.table(bytes).map { [$0.header] + $0.rows } ?? [] } catch {
            throw .notAReport(path: path, reason: "\(error)")
        }
        for i in records.indices { records[i].fields = records[i].fields.map(CSVWriter.restored) }
        return (records, CSVDialect(of: bytes))
    }

    /// The passwords of `known` whose accounts `rows` do not list: the new report keeps them.
    static func unlisted(_ known: [String: String], rows: [CheckedRow]) -> [String: String] {
        var listed: Set<String> = []
        for case .valid(let row) in rows { listed.insert(row.jid.description) }
        return known.filter { !listed.contains($0.key) }
    }

    /// The directory holding `path` (`.` when it names none).
    static func directory(of path: String) -> String {
        PathText.directory(of: path)
    }

    /// fsync of the directory holding `path`, so that the report's rename survives a power loss
    /// before the journal's copy of the passwords is wiped.
    static func syncDirectory(of path: String) throws(StorageError) {
        let directory = directory(of: path)
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: directory, reason: String(cString: strerror(errno))) }
        defer { _ = close(fd) }
        guard fsync(fd) == 0 else { throw .io(path: directory, reason: String(cString: strerror(errno))) }
    }
}
