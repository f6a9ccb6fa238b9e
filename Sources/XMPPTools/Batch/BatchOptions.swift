import Arguments
import XMPPBatch

/// The batch subcommand's options, read through its typed declarations (`RegisterTool.Batch`);
/// `configuration(common:)` is what the engine takes of them.
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
    /// `--admin`: XEP-0133 commands with the administrator's session.
    var admin = false
    /// `--invite`: one XEP-0401 account invite per row, by the administrator.
    var invite = false
    /// `--format`: nil to tell by the name and the first line.
    var format: BatchInputFormat?
    /// `--map`: the LDIF attributes' columns (nil: inetOrgPerson's).
    var map: String?

    /// Reads the options from a parsed command line, through the batch command's declarations.
    /// What one option says of another is in the spec's rules, which the parser enforced.
    init(_ command: ParsedCommand) throws(ToolFailure) {
        typealias Batch = RegisterTool.Batch
        input = command.argument(Batch.file.name) ?? "-"
        mode = command[Batch.delete] ? .delete : command[Batch.passwd] ? .passwd : .create
        let shardText: String?
        do {
            jobs = try command.value(Batch.jobs) ?? BatchConfiguration.defaultJobs
            window = try command.value(Batch.window) ?? 4
            maxStreamAge = try command.value(Batch.maxStreamAge) ?? 240
            onExists = try command.value(Batch.onExists) ?? .skip
            report = try command.value(Batch.report)
            domain = try command.value(Batch.domain)
            shardText = try command.value(Batch.shard)
            format = try command.value(Batch.format)
            map = try command.value(Batch.map)
        } catch {
            throw ToolFailure(.usage, error.reason.description)
        }
        resume = command[Batch.resume]
        dryRun = command[Batch.dryRun]
        strict = command[Batch.strict]
        shard = try shardText.map { s throws(ToolFailure) in try BatchOptions.shard(s) }
        generatePasswords = command[Batch.generatePasswords]
        admin = command[Batch.admin]
        invite = command[Batch.invite]
        // Not a rule: --dry-run writes nothing, so it may check a CSV without a password column alone.
        if generatePasswords && report == nil && !dryRun {
            throw ToolFailure(.usage, "--generate-passwords needs --report FILE: the report (mode 0600) is the only place the generated passwords are written")
        }
    }

    /// Reads `--shard K/N`.
    static func shard(_ text: String) throws(ToolFailure) -> Shard {
        guard let shard = Shard(text) else {
            throw ToolFailure(.usage, "invalid --shard '\(text)': expected K/N with 1 <= K <= N (e.g. 1/4 … 4/4)")
        }
        return shard
    }

    /// What the engine takes from these options and the common ones.
    func configuration(common: CommonOptions) -> BatchConfiguration {
        var configuration = BatchConfiguration()
        configuration.mode = mode
        configuration.onExists = onExists
        configuration.domain = domain
        configuration.shard = shard
        configuration.generatePasswords = generatePasswords
        configuration.resume = resume
        configuration.jobs = jobs
        configuration.window = window
        configuration.maxStreamAge = maxStreamAge
        configuration.timeout = common.timeout
        configuration.resource = common.resource
        configuration.admin = admin || invite
        configuration.invite = invite
        return configuration
    }
}
