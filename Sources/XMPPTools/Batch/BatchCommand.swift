#if canImport(Glibc)
import Glibc
#endif
import TextFormats
import XMPPStanzas
import XMPPStorage

/// `xmpp-register batch FILE.csv|-`: validate every row, then create (or `--delete`, or
/// `--passwd`) the accounts over pipelined streams, recording each outcome in the journal as it
/// happens, and finish with a report and a summary.
struct BatchCommand {
    let context: AccountContext
    let options: BatchOptions
    var env: ToolEnvironment { context.environment }

    /// Runs the batch; throws a `ToolFailure` for exit statuses other than 0.
    func run() throws {
        let input = try BatchInput.read(options.input, limit: CSVLimits().maxBytes)
        let records: [CSVRecord]
        do { records = try CSVReader.parse(input) } catch { throw ToolFailure(.badInput, "\(inputName): \(error)") }
        guard let header = records.first else { throw ToolFailure(.badInput, "\(inputName): no header row (expected e.g. jid,password)") }
        let columns = try BatchColumns(header: header, mode: options.mode, options: options)
        let output = BatchOutput(program: env.program, json: context.common.json, quiet: context.common.quiet,
                                 showProgress: Output.stderrIsTTY && !context.common.quiet)
        if !columns.unknown.isEmpty { output.note("ignoring unknown columns: " + columns.unknown.joined(separator: ", ")) }
        if options.mode != .create && !columns.presentProfileColumns.isEmpty {
            output.note("ignoring profile columns with --\(options.mode.rawValue): " + columns.presentProfileColumns.joined(separator: ", "))
        }

        var validator = BatchValidator(columns: columns, options: options, baseDirectory: baseDirectory)
        var checked = validator.check(Array(records.dropFirst()))
        if let shard = options.shard {
            checked = checked.filter { BatchInput.shard(of: $0.shardKey, count: shard.count) == shard.index - 1 }
        }
        let invalid = checked.compactMap { if case .invalid(let r) = $0 { return r } else { return nil } }
        if options.strict && !invalid.isEmpty {
            for bad in invalid { output.row(BatchCommand.outcome(bad)) }
            throw ToolFailure(.badInput, "\(invalid.count) invalid row\(invalid.count == 1 ? "" : "s"); nothing was sent (--strict)")
        }
        if options.dryRun { return try dryRun(checked, invalid: invalid, output: output) }
        try execute(input: input, checked: checked, output: output)
    }

    private var inputName: String { options.input == "-" ? "standard input" : options.input }

    private var baseDirectory: String {
        guard options.input != "-", let slash = absolute(options.input).lastIndex(of: "/") else { return env.currentDirectory }
        let path = absolute(options.input)
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : env.currentDirectory + "/" + path }

    private func dryRun(_ checked: [CheckedRow], invalid: [InvalidRow], output: BatchOutput) throws {
        for row in checked {
            switch row {
            case .invalid(let bad): output.row(BatchCommand.outcome(bad))
            case .valid(let good) where context.common.json:
                Output.line(BatchOutput.validJSON(line: good.line, jid: good.jid.description).compact)
            case .valid: break
            }
        }
        let summary = "dry run: \(checked.count - invalid.count) valid row\(checked.count - invalid.count == 1 ? "" : "s"), "
            + "\(invalid.count) invalid; nothing was sent"
        if !invalid.isEmpty { throw ToolFailure(.failed, summary) }
        output.note(summary)
    }

    private func execute(input: [UInt8], checked: [CheckedRow], output: BatchOutput) throws {
        let identity = BatchInput.identity(input: input, options: options)
        let reportPath = options.report.map(absolute)
        if let reportPath, options.input != "-", reportPath == absolute(options.input) {
            throw ToolFailure(.usage, "--report \(options.report ?? "") would overwrite the input CSV")
        }
        // The passwords an earlier report of this batch holds are carried into this run: the
        // report is their only copy once a run has finished.
        let known = try reportPath.map { p throws(ToolFailure) in try BatchReport.knownPasswords(at: p) } ?? [:]
        if let reportPath { try BatchCommand.refuseForeignPasswords(known, checked: checked, report: reportPath) }
        let journalPath = try BatchInput.journalPath(identity: identity, report: reportPath, paths: env.paths)
        let journal: BatchJournal
        do {
            journal = try BatchJournal(path: journalPath, identity: identity, start: options.resume ? .resume : .fresh)
        } catch {
            switch error {
            case .unfinished, .mismatch, .holdsPasswords: throw ToolFailure(.usage, error.description)
            default: throw ToolFailure(.failed, error.description)
            }
        }
        if !journal.resumed {
            if options.resume { output.note("no journal of this batch to resume: starting from the beginning") }
            try journal.insert(BatchPlan.entries(for: checked))
            for case .invalid(let bad) in checked { output.row(BatchCommand.outcome(bad)) }
        }
        try journal.adoptPasswords(known)
        let plan = try BatchPlan(checked: checked, entries: try journal.entries(), mode: options.mode)
        if journal.resumed { output.note("resuming: \(plan.doneEarlier) rows done earlier, \(plan.work.count + plan.followUps.count) to go") }

        let recorder = BatchRecorder(journal: journal, output: output)
        StopSignal.install(secondSignalKills: true)
        output.start(total: plan.work.count + plan.followUps.count)
        let runner = BatchRunner(context: context, options: options, recorder: recorder)
        var end = RegistrationEngine.End.completed
        var fatal: Error?
        do { end = try runner.run(plan) } catch { fatal = error }
        output.progress(recorder.finishedThisRun, force: true)
        output.clearBar()

        let entries = try journal.entries()
        let allFinal = entries.allSatisfy { $0.status.isFinal }
        try journal.setFinished(allFinal)
        if let reportPath {
            try writeReport(entries, to: reportPath, journal: journal, finished: allFinal, output: output)
        }
        let summary = BatchSummary(entries: entries, ranFor: output.elapsedSeconds, finishedThisRun: recorder.finishedThisRun)
        let resumeHint = "; continue with --resume (journal: \(journalPath))"
        if let signal = StopSignal.pending, end == .interrupted || fatal != nil {
            let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
            throw ToolFailure(signal == SIGTERM ? .terminated : .interrupted,
                              "interrupted by \(name); " + summary.text + (allFinal ? "" : resumeHint))
        }
        if let fatal {
            let failure = ErrorMapping.failure(for: fatal)
            throw ToolFailure(failure.code, failure.message + "; " + summary.text + (allFinal ? "" : resumeHint))
        }
        if end == .interrupted { throw ToolFailure(.interrupted, "interrupted; " + summary.text + resumeHint) }
        if !summary.allSucceeded { throw ToolFailure(.failed, summary.text + (allFinal ? "" : resumeHint)) }
        output.note(summary.text + (reportPath.map { "; report: \($0)" } ?? ""))
    }

    /// Writes the report; once a finished run's report is safely on disk, it alone keeps the
    /// generated passwords and they are wiped from the journal.
    private func writeReport(_ entries: [JournalEntry], to path: String, journal: BatchJournal, finished: Bool,
                             output: BatchOutput) throws {
        let includePasswords = options.generatePasswords || entries.contains { $0.generatedPassword != nil }
        do {
            try SecureFile.write(BatchReport.csv(entries, includePasswords: includePasswords), to: path)
            try BatchReport.syncDirectory(of: path)
        } catch {
            let kept = includePasswords ? "; it keeps the generated passwords until a --resume writes the report" : ""
            output.note("cannot write the report: \(error) (the journal \(journal.path) has every outcome\(kept))")
            return
        }
        if finished && includePasswords { try journal.wipePasswords() }
    }

    /// Refuses a report that holds passwords of accounts this batch does not list: rewriting it
    /// would lose them.
    static func refuseForeignPasswords(_ known: [String: String], checked: [CheckedRow], report: String) throws(ToolFailure) {
        var listed: Set<String> = []
        for case .valid(let row) in checked { listed.insert(row.jid.description) }
        let foreign = known.keys.filter { !listed.contains($0) }.sorted()
        guard let first = foreign.first else { return }
        throw ToolFailure(.usage, "\(report) holds the passwords of \(foreign.count) account\(foreign.count == 1 ? "" : "s") "
            + "this batch does not list (\(first)\(foreign.count > 1 ? ", …" : "")); rewriting it would lose them: "
            + "give another --report FILE, or move \(report) away first")
    }

    static func outcome(_ bad: InvalidRow) -> RowOutcome {
        RowOutcome(line: bad.line, jid: bad.jidText, status: .invalid, error: bad.reason)
    }
}
