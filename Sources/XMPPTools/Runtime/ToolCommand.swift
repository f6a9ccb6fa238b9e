import Arguments

/// One subcommand of a tool: its declaration, how it reads one run's command line, and what
/// it does (swift-argument-parser's shape). A tool is a list of these types; its spec and its
/// dispatch both come from that list, so a declared subcommand without an implementation
/// cannot exist, and the options a command reads are the ones it declares.
protocol ToolCommand: ToolCommandMetatype {
    /// Name, summary, options (typed `Flag`/`Option` declarations), positionals, rules, examples.
    static var spec: CommandSpec { get }
    /// Reads this run's options through the declarations in `spec`; a bad value is a usage error.
    init(_ invocation: Invocation) throws
    /// Does the work; any error becomes one line on stderr and a documented exit status.
    func run() throws
}

/// A tool of the suite: the page-level declaration (summary, description, examples) and its
/// subcommands, from which the whole `ToolSpec` is built.
struct Tool: Sendable {
    /// What parsing, help, the man page and the completions use.
    let spec: ToolSpec
    private let commands: [any ToolCommand.Type]

    /// Declares a tool whose subcommands are `commands`, in the order help lists them; the
    /// first word may be left out for `defaultCommand` (`xmpp-login JID`).
    init(name: String, summary: String, description: [String], commands: [any ToolCommand.Type],
         defaultCommand: (any ToolCommand.Type)? = nil, examples: [Example], seeAlso: [String]) {
        self.commands = commands
        spec = ToolSpec(
            name: name, summary: summary, description: description, version: CommonSpec.version,
            commonOptions: CommonSpec.options, subcommands: commands.map { $0.spec },
            defaultSubcommand: defaultCommand.map { $0.spec.name }, exitCodes: CommonSpec.exitCodes,
            environment: CommonSpec.environment, files: CommonSpec.files, examples: examples, seeAlso: seeAlso)
    }

    /// Parses the process's command line, runs the subcommand it names, and exits.
    func main() -> Never {
        main(arguments: Array(CommandLine.arguments.dropFirst()))
    }

    /// The same with `arguments` (without the program's name) in place of the command line's.
    func main(arguments: [String]) -> Never {
        ToolMain.run(spec: spec, arguments: arguments) { invocation in try run(invocation) }
    }

    /// Runs the subcommand `invocation` names.
    func run(_ invocation: Invocation) throws {
        guard let command = commands.first(where: { $0.spec.name == invocation.command.command }) else {
            throw ToolFailure(.usage, "unknown command '\(invocation.command.command)'")
        }
        try command.init(invocation).run()
    }
}

#if compiler(>=6.2)
/// `Tool` keeps its commands' metatypes in a `Sendable` value: from Swift 6.2 (SE-0470) a
/// metatype is `Sendable` only when its protocol refines `SendableMetatype`.
protocol ToolCommandMetatype: SendableMetatype {}
#else
/// Swift 6.0 and 6.1 (Debian 13's swiftlang is 6.0.3) have no `SendableMetatype`: there every
/// metatype is `Sendable`.
protocol ToolCommandMetatype {}
#endif
