/// The whole command-line interface of one tool, declared once: parsing, help, the man page and
/// the shell completions all derive from it.
public struct ToolSpec: Sendable, Equatable {
    /// Program name: `xmpp-roster`.
    public var name: String
    /// One line saying what the tool does (the man page's NAME description).
    public var summary: String
    /// Paragraphs for help and the man page's DESCRIPTION.
    public var description: [String]
    /// Version printed by `--version`.
    public var version: String
    /// The shared option group every subcommand accepts (`--help` and `--version` are implied).
    public var commonOptions: [OptionSpec]
    /// The subcommands, in the order help lists them.
    public var subcommands: [CommandSpec]
    /// Subcommand run when the first word is not a subcommand name, that word becoming its first
    /// positional: `xmpp-login JID`.
    public var defaultSubcommand: String?
    /// Exit statuses and their meanings.
    public var exitCodes: [ExitStatus]
    /// Environment variables the tool reads (option fallbacks are added automatically).
    public var environment: [Definition]
    /// Files the tool reads or writes.
    public var files: [Definition]
    /// Example invocations, pipelines included.
    public var examples: [Example]
    /// Related pages as `name(section)`: `xmpp-tools(7)`.
    public var seeAlso: [String]

    /// Declares a tool.
    public init(
        name: String, summary: String, description: [String] = [], version: String,
        commonOptions: [OptionSpec] = [], subcommands: [CommandSpec], defaultSubcommand: String? = nil,
        exitCodes: [ExitStatus] = [], environment: [Definition] = [], files: [Definition] = [],
        examples: [Example] = [], seeAlso: [String] = []
    ) {
        self.name = name
        self.summary = summary
        self.description = description
        self.version = version
        self.commonOptions = commonOptions
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
        self.exitCodes = exitCodes
        self.environment = environment
        self.files = files
        self.examples = examples
        self.seeAlso = seeAlso
    }

    /// The common options followed by `--help` and `--version`.
    public var globalOptions: [OptionSpec] { commonOptions + [.help, .version] }

    /// The subcommands shown in help, man pages and completions.
    public var visibleSubcommands: [CommandSpec] { subcommands.filter { !$0.hidden } }

    /// The subcommand called `name`.
    public func command(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    /// The subcommand run when no subcommand word is given.
    public var defaultCommand: CommandSpec? { defaultSubcommand.flatMap(command(named:)) }

    /// Every option `command` accepts: its own, then the global ones.
    public func options(for command: CommandSpec) -> [OptionSpec] {
        command.options + globalOptions
    }

    /// The common option whose value is an account (`--account`), passed on to `__complete`.
    public var accountOption: OptionSpec? {
        commonOptions.first { $0.completion == .accounts && $0.takesValue }
    }

    /// The environment section: `environment`, then option fallbacks it does not already name.
    public var environmentEntries: [Definition] {
        var entries = environment
        for option in commonOptions + subcommands.flatMap(\.options) where !option.hidden {
            guard let variable = option.env, !entries.contains(where: { $0.term == variable }) else { continue }
            entries.append(Definition(variable, "Used for \(option.longName) when it is not given."))
        }
        return entries
    }
}

/// One exit status of a tool and what it means.
public struct ExitStatus: Sendable, Equatable {
    /// The status: 0 to 125.
    public var code: Int32
    /// What it means.
    public var meaning: String

    /// Declares an exit status.
    public init(_ code: Int32, _ meaning: String) {
        self.code = code
        self.meaning = meaning
    }
}
