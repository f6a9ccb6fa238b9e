/// One option of a tool or subcommand: a flag (`--json`) or an option taking a value (`--group G`).
public struct OptionSpec: Sendable, Equatable {
    /// Long name without dashes: `account` for `--account`.
    public var long: String
    /// Short letter without the dash: `a` for `-a`.
    public var short: Character?
    /// Placeholder of the value in help and man pages (`JID`); nil makes the option a flag.
    public var valueName: String?
    /// One sentence saying what the option does.
    public var help: String
    /// Value used when the option is absent from the command line and from the environment.
    public var defaultValue: String?
    /// Whether the option may be given more than once (each value is kept, in order).
    public var repeatable: Bool
    /// Environment variable read when the option is absent from the command line.
    /// For a flag, any value but empty, `0`, `false` or `no` sets it.
    public var env: String?
    /// What shells complete for the value.
    public var completion: CompletionKind
    /// Accepted by the parser but left out of help, man pages and completions.
    public var hidden: Bool

    /// Declares an option; `value` nil declares a flag.
    public init(
        _ long: String, short: Character? = nil, value valueName: String? = nil, help: String,
        default defaultValue: String? = nil, repeatable: Bool = false, env: String? = nil,
        completion: CompletionKind = .none, hidden: Bool = false
    ) {
        self.long = long
        self.short = short
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.repeatable = repeatable
        self.env = env
        self.completion = completion
        self.hidden = hidden
    }

    /// Declares a flag: an option that takes no value.
    public static func flag(
        _ long: String, short: Character? = nil, help: String, env: String? = nil, hidden: Bool = false
    ) -> OptionSpec {
        OptionSpec(long, short: short, help: help, env: env, hidden: hidden)
    }

    /// Whether the option takes a value.
    public var takesValue: Bool { valueName != nil }

    /// The long form as typed: `--account`.
    public var longName: String { "--" + long }

    /// The short form as typed (`-a`), if any.
    public var shortName: String? { short.map { "-" + String($0) } }

    /// `-h/--help`, accepted everywhere.
    public static let help = OptionSpec.flag("help", short: "h", help: "Show this help and exit.")

    /// `--version`, accepted everywhere.
    public static let version = OptionSpec.flag("version", help: "Print the version and exit.")
}
