/// Why a batch journal cannot be used.
public enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An unfinished run is recorded there and `--resume` was not asked for.
    case unfinished(path: String, done: Int, total: Int)
    /// The journal records a different batch (another CSV, mode, domain or shard).
    case mismatch(path: String, recorded: String)
    /// Another process holds the journal right now.
    case locked(path: String)
    /// Reading or writing the journal failed.
    case storage(StorageError)

    public var description: String {
        switch self {
        case .unfinished(let p, let d, let t):
            return "\(p) records an unfinished run of this batch (\(d) of \(t) rows done): continue it with --resume, or remove that file to start over"
        case .mismatch(let p, let r):
            return "\(p) records a different batch (\(r)); give the same CSV and options to --resume it, or remove that file"
        case .locked(let p): return "another xmpp-register batch is using \(p)"
        case .storage(let e): return "batch journal: \(e)"
        }
    }
}
