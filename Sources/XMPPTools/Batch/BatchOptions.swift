import Arguments

/// What a batch does to each row.
enum BatchMode: String, Sendable {
    /// Register the accounts (the default).
    case create
    /// `--delete`: log in with the row's password and cancel the registration.
    case delete
    /// `--passwd`: log in with `password` and change it to `new_password`.
    case passwd
}

/// `--on-exists`: what an account that already exists means.
enum ExistsPolicy: String, Sendable, CaseIterable {
    /// Report it as `exists` and count it as done.
    case skip
    /// Report it as `exists` and count it as a failure.
    case fail
    /// Log in with the row's password and apply its profile columns.
    case update
}

/// `--shard K/N`: this process takes the rows whose bare JID hashes to K (1-based) of N.
struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1...count.
    var index: Int
    /// How many shards the CSV is split into.
    var count: Int

    /// Parses `K/N`.
    init(_ text: String) throws(ToolFailure) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 100_000, (1...n).contains(k) else {
            throw ToolFailure(.usage, "invalid --shard '\(text)': expected K/N with 1 <= K <= N (e.g. 1/4 … 4/4)")
        }
        index = k
        count = n
    }

    var description: String { "\(index)/\(count)" }
}

/// The batch subcommand's options, typed and checked against each other.
struct BatchOptions: Sendable {
    /// The CSV path, or `-` for standard input.
    var input: String
    var mode: BatchMode = .create
    /// Streams at once.
    var jobs = 4
    /// Registrations in flight per stream.
    var window = 4
    var resume = false
    var dryRun = false
    var strict = false
    var onExists: ExistsPolicy = .skip
    /// `--report FILE`.
    var report: String?
    /// `--domain D` for `username` columns and JIDs without `@`.
    var domain: String?
    var shard: Shard?
    var generatePasswords = false
    /// Seconds before a registration stream is replaced by a fresh one.
    var maxStreamAge = 240

    /// The default for `--jobs`: enough streams to keep a server's registration worker busy
    /// (each stream pipelines `window` requests), few enough not to look like a flood.
    static let defaultJobs = 4

    /// Reads the options from a parsed command line, through the batch command's declarations.
    /// What one option says of another is in the spec's rules, which the parser enforced.
    init(_ command: ParsedCommand) throws(ToolFailure) {
        typealias Batch = RegisterTool.Batch
        input = command.argument(Batch.file.name) ?? "-"
        mode = command[Batch.delete] ? .delete : command[Batch.passwd] ? .passwd : .create
        let shardText: String?
        do {
            jobs = try command.value(Batch.jobs) ?? BatchOptions.defaultJobs
            window = try command.value(Batch.window) ?? 4
            maxStreamAge = try command.value(Batch.maxStreamAge) ?? 240
            onExists = try command.value(Batch.onExists) ?? .skip
            report = try command.value(Batch.report)
            domain = try command.value(Batch.domain)
            shardText = try command.value(Batch.shard)
        } catch {
            throw ToolFailure(.usage, error.reason.description)
        }
        resume = command[Batch.resume]
        dryRun = command[Batch.dryRun]
        strict = command[Batch.strict]
        shard = try shardText.map { s throws(ToolFailure) in try Shard(s) }
        generatePasswords = command[Batch.generatePasswords]
        // Not a rule: --dry-run writes nothing, so it may check a CSV without a password column alone.
        if generatePasswords && report == nil && !dryRun {
            throw ToolFailure(.usage, "--generate-passwords needs --report FILE: the report (mode 0600) is the only place the generated passwords are written")
        }
    }
}
