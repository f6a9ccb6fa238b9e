/// Why a batch journal cannot be used. The command layer words each for its command (the
/// options that differ, the way forward); `description` is a plain summary without them.
public enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An unfinished run is recorded there and this run was not asked to continue it;
    /// `sameBatch` is false when it is a run of another input or other options; `passwords`
    /// generated passwords are kept only there. `differences` names what makes it another
    /// batch. `resumable`: it differs in the administrator's streams alone, which a run asked
    /// to continue takes over.
    case unfinished(path: String, done: Int, total: Int, sameBatch: Bool, passwords: Int, differences: [BatchIdentityDifference] = [],
                    resumable: Bool = false)
    /// The journal records a different batch (another CSV, mode, domain or shard); `differences`
    /// names what differs.
    case mismatch(path: String, recorded: String, passwords: Int, differences: [BatchIdentityDifference] = [])
    /// A finished run whose report could not take its generated passwords: they are only here.
    case holdsPasswords(path: String, count: Int)
    /// Another process holds the journal right now.
    case locked(path: String)
    /// Reading or writing the journal failed.
    case storage(StorageError)

    public var description: String {
        switch self {
        case .unfinished(let p, let d, let t, let same, let n, _, _):
            return "\(p) records an unfinished run of \(same ? "this batch" : "a different batch") (\(d) of \(t) rows done"
                + (n > 0 ? ", and the only copy of \(n) generated password\(n == 1 ? "" : "s"))" : ")")
        case .mismatch(let p, _, let n, _):
            return "\(p) records a different batch" + (n > 0 ? " and the only copy of \(n) generated password\(n == 1 ? "" : "s")" : "")
        case .holdsPasswords(let p, let n):
            return "\(p) holds the only copy of \(n) generated password\(n == 1 ? "" : "s") of a finished run whose report was not written"
        case .locked(let p): return "another run is using the batch journal \(p)"
        case .storage(let e): return "batch journal: \(e)"
        }
    }
}
