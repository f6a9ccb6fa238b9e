import XMPPStorage

/// How a run's work ended.
public enum BatchEnd: Sendable, Equatable {
    /// Every row of the plan has an outcome (or stays in the journal after a fatal error).
    case completed
    /// Asked to stop: what was in flight was awaited, the rest waits for `--resume`.
    case interrupted
}

/// One run of a batch against its journal, in the order the command line drives it: `init`
/// opens (or resumes) the journal, `plan()` joins the rows with it, `execute` does the work,
/// `finish()` writes the report. Every outcome is journaled before anyone hears of it.
public final class BatchRun {
    /// Where every outcome is recorded.
    public let journal: BatchJournal
    /// `--report FILE`, absolute.
    public let reportPath: String?
    private let sheet: BatchSheet
    private var configuration: BatchConfiguration
    /// Passwords the earlier report of this batch holds, by JID.
    private let known: [String: String]
    /// Those of accounts this CSV does not list: written to the new report again, never lost.
    private let carried: [String: String]
    /// When the earlier report's slips were printed (`xmpp-register handout`), kept in the new one.
    private let stamps: HandoutStamps
    private var recorder: BatchRecorder?
    /// A sync's own report columns (the day each account was created, its invite); none for a batch.
    var syncColumns = SyncReportColumns()

    /// How `sync` shapes a run: its own journal identity and first rows, and the accounts whose
    /// earlier password is not taken over (created again after a deletion: a new one is made).
    struct Shape {
        var identity: BatchIdentity
        var entries: [JournalEntry]
        var forget: Set<String>
        /// Passwords of accounts taken over from another report (`sync --adopt-report`), by JID.
        var adopted: [String: String] = [:]
    }

    /// Reads the earlier report's passwords (refusing a report that holds other accounts'), then
    /// opens the journal next to the report, or under `stateDirectory`: a new run records every
    /// row of `sheet`, without passwords; `configuration.resume` continues an unfinished one.
    public convenience init(sheet: BatchSheet, configuration: BatchConfiguration, reportPath: String?, stateDirectory: String) throws {
        try self.init(sheet: sheet, configuration: configuration, reportPath: reportPath, stateDirectory: stateDirectory, shape: nil)
    }

    init(sheet: BatchSheet, configuration: BatchConfiguration, reportPath: String?, stateDirectory: String, shape: Shape?) throws {
        self.sheet = sheet
        self.configuration = configuration
        self.reportPath = reportPath
        // The passwords an earlier report of this batch holds are carried into this run: the
        // report is their only copy once a run has finished.
        // The report, its journal and the journal's companions are secrets: their directory
        // must be one nobody else can swap files in, checked before any account is created.
        if let reportPath {
            do { try FileTrust.requireSafeDirectory(BatchReport.directory(of: reportPath)) } catch {
                throw BatchError.unsafeReport(error)
            }
        }
        // So is the split's directory: a link or a stranger's directory found only when the split
        // is written would fail a run whose accounts were made by then.
        if let directory = configuration.reportByGroup {
            do { try FileTrust.requirePrivateDirectoryOrAbsent(directory) } catch { throw BatchError.unsafeReportByGroup(error) }
        }
        let earlier = try reportPath.map { p throws(BatchError) in try BatchReport.knownPasswords(at: p) } ?? [:]
        // A report's passwords of accounts this CSV does not list (a row removed, another shard's)
        // are carried into the new report: rewriting it never loses one.
        carried = BatchReport.unlisted(earlier, rows: sheet.rows)
        stamps = reportPath.map { HandoutStamps(report: $0) } ?? HandoutStamps()
        if shape != nil { syncColumns = SyncReportColumns(report: reportPath, today: SyncClock.today()) }
        known = earlier.filter { !(shape?.forget.contains($0.key) ?? false) }.merging(shape?.adopted ?? [:]) { own, _ in own }
        let identity = shape?.identity ?? BatchInput.identity(inputSHA256: sheet.inputSHA256, configuration: configuration)
        let path = try BatchInput.journalPath(identity: identity, report: reportPath, stateDirectory: stateDirectory)
        let start: BatchJournal.Start = shape != nil ? .continueUnfinished : configuration.resume ? .resume : .fresh
        journal = try BatchJournal(path: path, identity: identity, start: start)
        if !journal.resumed { try journal.insert(shape?.entries ?? BatchPlan.entries(for: plannedRows, mode: configuration.mode)) }
        if shape == nil, (try? SecureFile.makeDirectory(stateDirectory + "/batch")) != nil {
            self.configuration.rosterMemoryPath = stateDirectory + "/batch/rosters.sqlite3"
        }
    }

    /// True when the journal held an unfinished run of this batch, which this one continues.
    public var resumed: Bool { journal.resumed }

    /// An unfinished run this one replaced because the server had done nothing for it: what
    /// made it another batch (empty: it was this one). Nil when none was replaced.
    public var replacedUntouched: [BatchIdentityDifference]? { journal.replacedUntouched }

    /// The unfinished run of this CSV that this one resumed with another --admin choice: what
    /// differed. Nil otherwise.
    public var resumedAcross: [BatchIdentityDifference]? { journal.resumedAcross }

    /// Carries the earlier report's passwords into the journal and joins the valid rows with it.
    public func plan() throws -> BatchPlan {
        try journal.adoptPasswords(known)
        return try BatchPlan(checked: plannedRows, entries: try journal.entries(), mode: configuration.mode)
    }

    /// The rows the engines work on: with `--shared-groups` the server's groups give the rosters,
    /// so the rows take no part in a roster phase (the report still shows their groups).
    private var plannedRows: [CheckedRow] {
        guard configuration.sharedGroups else { return sheet.rows }
        return sheet.rows.map { row in
            guard case .valid(var good) = row else { return row }
            good.roster = RosterColumns()
            return .valid(good)
        }
    }

    /// Works through `plan`, reaching each domain's server through `endpoint`, telling `events`
    /// of every outcome once it is journaled, and stopping early once `shouldStop` says so.
    /// A fatal error (TLS, a server that refuses every request, the journal) is thrown once
    /// everything learned before it is recorded.
    /// With `admin` (`--admin`), the rows go through the administrator's XEP-0133 commands.
    public func execute(_ plan: BatchPlan, endpoint: (_ domain: String) throws -> BatchEndpoint, events: BatchEvents,
                        admin: AdminSession? = nil, shouldStop: @escaping @Sendable () -> Bool) throws -> BatchEnd {
        let recorder = BatchRecorder(journal: journal, events: events)
        self.recorder = recorder
        return try BatchRunner(configuration: configuration, recorder: recorder, shouldStop: shouldStop, admin: admin)
            .run(plan, endpoint: endpoint)
    }

    /// Rows this run finished (created ones whose profile is still to set included).
    public var finishedThisRun: Int { recorder?.finishedThisRun ?? 0 }
    /// Rosters this run finished (the roster phase's work, beside the rows' own).
    public var rostersThisRun: Int { recorder?.rostersThisRun ?? 0 }

    /// What `finish()` found and did.
    public struct Finish {
        /// Every row's journal entry.
        public var entries: [JournalEntry]
        /// Every row has a final outcome.
        public var finished: Bool
        /// The report has (or would have had) a password column.
        public var reportHasPasswords: Bool
        /// Why the report could not be written; the journal still has every outcome (and the
        /// passwords, which are wiped only once a finished run's report is on disk).
        public var reportFailure: StorageError?
        /// Why the report split by group (`--report-by-group`) could not be written; the report
        /// itself was, and keeps every password.
        public var groupReportFailure: StorageError?
    }

    /// Marks the journal finished when every row is, and writes the report from it; once a
    /// finished run's report is safely on disk, it alone keeps the generated passwords and they
    /// are wiped from the journal.
    public func finish() throws -> Finish {
        let entries = try journal.entries()
        let finished = entries.allSatisfy { $0.status.isFinal && !RosterPhase.State.isUnfinished($0.roster) }
        try journal.setFinished(finished)
        let includePasswords = configuration.generatePasswords || configuration.invite || !carried.isEmpty
            || entries.contains { $0.generatedPassword != nil }
        var result = Finish(entries: entries, finished: finished, reportHasPasswords: includePasswords)
        guard let reportPath else { return result }
        let people = ReportPeople(rows: sheet.rows, columns: sheet.columns)
        do {
            // Written a row at a time into its temporary file, renamed over the report at the end.
            let writer = try SecretFileWriter(reportPath)
            try BatchReport.write(entries, includePasswords: includePasswords, invites: configuration.invite, people: people,
                                  carried: carried, stamps: stamps, sync: syncColumns) { (record: String) throws(StorageError) in
                try writer.write(record)
            }
            try writer.commit()
            try BatchReport.syncDirectory(of: reportPath)
        } catch {
            result.reportFailure = error
            return result
        }
        if let directory = configuration.reportByGroup {
            do {
                try GroupReports.write(entries, people: people, includePasswords: includePasswords, invites: configuration.invite,
                                       stamps: stamps, sync: syncColumns, dialect: sheet.dialect, to: directory)
            } catch {
                result.groupReportFailure = error
            }
        }
        if finished && includePasswords { try journal.wipePasswords() }
        return result
    }
}
