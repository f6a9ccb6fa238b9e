/// One subcommand of a tool, such as `list` or `remove` of `xmpp-roster`.
public struct CommandSpec: Sendable, Equatable {
    /// The word that selects it: `remove`.
    public var name: String
    /// One line saying what it does, shown in command lists.
    public var summary: String
    /// Further paragraphs for its help and its man page entry.
    public var discussion: [String]
    /// Its own options; the tool's common options are accepted too.
    public var options: [OptionSpec]
    /// Its positional arguments, in order.
    public var positionals: [PositionalSpec]
    /// Accepted by the parser but left out of help, man pages and completions.
    public var hidden: Bool
    /// Example invocations, for help and man pages.
    public var examples: [Example]
    /// Which of its options exclude or need each other; the parser enforces them.
    public var rules: [OptionRule]

    /// Declares a subcommand.
    public init(
        _ name: String, summary: String, discussion: [String] = [], options: [any DeclaredOption] = [],
        positionals: [PositionalSpec] = [], rules: [OptionRule] = [], hidden: Bool = false, examples: [Example] = []
    ) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.options = options.map(\.spec)
        self.positionals = positionals
        self.rules = rules
        self.hidden = hidden
        self.examples = examples
    }

    /// The non-hidden options of this subcommand alone.
    public var visibleOptions: [OptionSpec] { options.filter { !$0.hidden } }
}

/// A command line and what it does, shown in help and man pages.
public struct Example: Sendable, Equatable {
    /// The shell command line, pipelines included.
    public var command: String
    /// One sentence saying what it does.
    public var explanation: String

    /// Declares an example.
    public init(_ command: String, _ explanation: String) {
        self.command = command
        self.explanation = explanation
    }
}

/// A term and its explanation: an environment variable, a file or an exit status.
public struct Definition: Sendable, Equatable {
    /// The variable, path or code.
    public var term: String
    /// What it means.
    public var text: String

    /// Declares a definition.
    public init(_ term: String, _ text: String) {
        self.term = term
        self.text = text
    }
}
