/// What a batch does to each row.
public enum BatchMode: String, Sendable {
    /// Register the accounts (the default).
    case create
    /// `--delete`: log in with the row's password and cancel the registration.
    case delete
    /// `--passwd`: log in with `password` and change it to `new_password`.
    case passwd
}

/// `--on-exists`: what an account that already exists means.
public enum ExistsPolicy: String, Sendable, CaseIterable {
    /// Report it as `exists` and count it as done.
    case skip
    /// Report it as `exists` and count it as a failure.
    case fail
    /// Log in with the row's password and apply its profile columns.
    case update
}

/// `--shard K/N`: this process takes the rows whose bare JID hashes to K (1-based) of N.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1...count.
    public let index: Int
    /// How many shards the CSV is split into.
    public let count: Int

    /// Reads `K/N` with 1 <= K <= N <= 100000; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 100_000, (1...n).contains(k) else {
            return nil
        }
        index = k
        count = n
    }

    public var description: String { "\(index)/\(count)" }
}

/// What shapes a batch and how it runs: the command line's choices, as the engine takes them.
public struct BatchConfiguration: Sendable {
    /// The default for `--jobs`: enough streams to keep a server's registration worker busy
    /// (each stream pipelines `window` requests), few enough not to look like a flood.
    public static let defaultJobs = 4

    /// Create, delete or change passwords.
    public var mode: BatchMode = .create
    /// What an account that exists means (creating only).
    public var onExists: ExistsPolicy = .skip
    /// The domain of a `username` column and of JIDs written without `@`.
    public var domain: String?
    /// Only this shard of the rows.
    public var shard: Shard?
    /// Rows without a password (`--passwd`: without new_password) get a generated one.
    public var generatePasswords = false
    /// Continue the journal's unfinished run instead of starting a new one.
    public var resume = false
    /// Streams at once.
    public var jobs = BatchConfiguration.defaultJobs
    /// Where `RosterMemory` keeps what earlier batches left each roster as (set by `BatchRun`;
    /// nil: every roster is checked on the server). Not part of the batch's identity.
    public var rosterMemoryPath: String?
    /// Registrations in flight per stream.
    public var window = 4
    /// Seconds before a registration stream is replaced by a fresh one.
    public var maxStreamAge = 240
    /// Seconds a network step may take.
    public var timeout = 15
    /// The resource the log-in phase binds (nil: the server's choice of a random one).
    public var resource: String?
    /// `--admin`: the administrator's XEP-0133 commands instead of in-band registration (and,
    /// for delete and passwd, instead of each account's own log-in).
    public var admin = false
    /// `--invite`: the administrator creates one XEP-0401 account invite per row instead of the
    /// account; the report gets the invite's URI and landing page, and no password is handled.
    public var invite = false
    /// The input is LDIF, its entries read into columns through this map (`--format ldif`,
    /// `--map`); nil: the input is CSV.
    public var directoryMap: DirectoryMap?

    /// The defaults.
    public init() {}
}
