import TextFormats

/// Parses a command line against a `ToolSpec`.
///
/// Rules: `--x=v`, `--x v`, `-x v`, `-xv`, bundled flags `-abc`; `--` ends the options;
/// options may come before or after the subcommand word and among positionals; common options
/// are accepted everywhere; `-h`/`--help` anywhere asks for the help of the subcommand in scope,
/// `--version` for the version; `TOOL __complete ...` is a `CompletionRequest`.
public enum ArgumentParser {
    /// Parses `args` (without the program name). `environment` supplies option fallbacks.
    public static func parse(
        _ args: ArraySlice<String>, spec: ToolSpec, environment: [String: String] = [:]
    ) throws(ArgumentError) -> ParseOutcome {
        if args.first == CompletionRequest.subcommand {
            return .complete(CompletionRequest(arguments: args.dropFirst()))
        }
        let scope = try Scope(args, spec: spec)
        if scope.help {
            if let command = scope.command, scope.commandIndex != nil {
                return .help(HelpRenderer.command(command, in: spec))
            }
            return .help(HelpRenderer.tool(spec))
        }
        if scope.version { return .version(spec.name + " " + spec.version) }
        guard let command = scope.command else {
            let names = spec.visibleSubcommands.map(\.name)
            throw ArgumentError(.missingSubcommand(available: names), tool: spec.name)
        }
        var state = ParseState(spec: spec, command: command, isDefault: scope.commandIndex == nil)
        try state.read(args, skipping: scope.commandIndex)
        try state.applyFallbacks(environment)
        try state.checkRules()
        try state.assignPositionals()
        return .run(state.result)
    }

    /// The parse of `CommandLine.arguments` with the process environment given by the caller.
    public static func parse(
        commandLine: [String], spec: ToolSpec, environment: [String: String] = [:]
    ) throws(ArgumentError) -> ParseOutcome {
        try parse(commandLine.dropFirst(), spec: spec, environment: environment)
    }
}

/// First pass: finds the subcommand word and whether help or the version was asked for,
/// skipping option values so that `--group list` does not select `list`.
struct Scope {
    var command: CommandSpec?
    /// Index of the subcommand word in the arguments; nil when none, or the default applies.
    var commandIndex: Int?
    var help = false
    var version = false

    init(_ args: ArraySlice<String>, spec: ToolSpec) throws(ArgumentError) {
        var index = args.startIndex
        var chosen = false
        while index < args.endIndex {
            let word = args[index]
            if word == "--" { break }
            if word.hasPrefix("--") {
                let name = word.dropFirst(2)
                if name == "help" { help = true }
                if name == "version" { version = true }
                if !name.contains("="), lookup(spec, where: { $0.long == name })?.takesValue == true { index += 1 }
            } else if word.hasPrefix("-") && word.count > 1 {
                var letters = word.dropFirst()
                while let letter = letters.popFirst() {
                    let option = lookup(spec, where: { $0.short == letter })
                    if option?.long == "help" { help = true }
                    if option?.takesValue == true {
                        if letters.isEmpty { index += 1 }
                        break
                    }
                }
            } else if !chosen {
                chosen = true
                try choose(word, at: index, spec: spec)
            }
            index += 1
        }
        if !chosen { command = spec.defaultCommand }
    }

    /// Takes `word` as the subcommand, or as the default subcommand's first positional.
    private mutating func choose(_ word: String, at index: Int, spec: ToolSpec) throws(ArgumentError) {
        if let named = spec.command(named: word) {
            command = named
            commandIndex = index
            return
        }
        let suggestion = Suggestion.closest(to: word, among: spec.visibleSubcommands.map(\.name))
        let plainWord = word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        if let fallback = spec.defaultCommand, suggestion == nil || !plainWord {
            command = fallback
            return
        }
        throw ArgumentError(.unknownSubcommand(word, suggestion: suggestion), tool: spec.name)
    }

    /// The option matching `test` in scope: the subcommand's and the global ones once the
    /// subcommand is known, any subcommand's before.
    private func lookup(_ spec: ToolSpec, where test: (OptionSpec) -> Bool) -> OptionSpec? {
        if let command { return spec.options(for: command).first(where: test) }
        return (spec.globalOptions + spec.subcommands.flatMap(\.options)).first(where: test)
    }
}
