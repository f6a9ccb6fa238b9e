/// Why a batch journal cannot be used. The messages never suggest removing a journal that holds
/// generated passwords: until a finished run's report holds them, it is their only copy.
public enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An unfinished run is recorded there and `--resume` was not asked for; `sameBatch` is
    /// false when it is a run of another CSV or other options; `passwords` generated passwords
    /// are kept only there.
    /// `differences` names what makes it another batch (the options or the CSV).
    /// `resumable`: it differs in --admin alone, which --resume takes over.
    case unfinished(path: String, done: Int, total: Int, sameBatch: Bool, passwords: Int, differences: [String] = [],
                    resumable: Bool = false)
    /// The journal records a different batch (another CSV, mode, domain or shard); `differences`
    /// names what differs.
    case mismatch(path: String, recorded: String, passwords: Int, differences: [String] = [])
    /// A finished run whose report could not take its generated passwords: they are only here.
    case holdsPasswords(path: String, count: Int)
    /// Another process holds the journal right now.
    case locked(path: String)
    /// Reading or writing the journal failed.
    case storage(StorageError)

    public var description: String {
        switch self {
        case .unfinished(let p, let d, let t, let same, let n, let differences, let resumable):
            let what = same ? "this batch" : "a different batch (" + JournalError.differing(differences) + ")"
            let how = same ? "continue it with --resume"
                : resumable ? "continue it with --resume, which takes its rows over with this run's --admin choice"
                : "finish it with its own CSV and options and --resume, or choose another --report"
            return "\(p) records an unfinished run of \(what) (\(d) of \(t) rows done): " + how
                + (n > 0 ? JournalError.keep(n) : (same ? ", or remove that file to start over" : ""))
        case .mismatch(let p, let r, let n, let differences):
            let what = differences.isEmpty ? r : JournalError.differing(differences)
            return "\(p) records a different batch (\(what)); give the same CSV and options to --resume it"
                + (n > 0 ? JournalError.keep(n) : ", or remove that file")
        case .holdsPasswords(let p, let n):
            return "\(p) holds the generated passwords of \(n) account\(n == 1 ? "" : "s") of a finished run whose report "
                + "was not written: run that batch again with --resume to write the report (keep this file until then)"
        case .locked(let p): return "another xmpp-register batch is using \(p)"
        case .storage(let e): return "batch journal: \(e)"
        }
    }

    private static func differing(_ differences: [String]) -> String {
        differences.isEmpty ? "another CSV or other options" : differences.joined(separator: "; ")
    }

    private static func keep(_ count: Int) -> String {
        "; keep that file: it holds the only copy of \(count) generated password\(count == 1 ? "" : "s")"
    }
}
