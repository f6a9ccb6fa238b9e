import TextFormats

/// Second pass of `ArgumentParser`: reads every option and positional of one subcommand.
struct ParseState {
    let spec: ToolSpec
    let command: CommandSpec
    let options: [OptionSpec]
    var result: ParsedCommand
    private var words: [String] = []

    init(spec: ToolSpec, command: CommandSpec, isDefault: Bool) {
        self.spec = spec
        self.command = command
        self.options = spec.options(for: command)
        self.result = ParsedCommand(tool: spec.name, command: command.name, isDefault: isDefault)
    }

    /// Reads `args`, leaving out the subcommand word at `skipped`.
    mutating func read(_ args: ArraySlice<String>, skipping skipped: Int?) throws(ArgumentError) {
        var index = args.startIndex
        var optionsEnded = false
        while index < args.endIndex {
            let word = args[index]
            index += 1
            if index - 1 == skipped { continue }
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                words.append(word)
            } else if word == "--" {
                optionsEnded = true
            } else if word.hasPrefix("--") {
                try readLong(word, args, &index)
            } else {
                try readShorts(word, args, &index)
            }
        }
    }

    /// `--name`, `--name=value` or `--name value`.
    private mutating func readLong(
        _ word: String, _ args: ArraySlice<String>, _ index: inout Int
    ) throws(ArgumentError) {
        let body = word.dropFirst(2)
        let name = body.prefix { $0 != "=" }
        let inline = name.endIndex < body.endIndex ? String(body[body.index(after: name.endIndex)...]) : nil
        guard let option = options.first(where: { $0.long == name }) else {
            let known = options.filter { !$0.hidden }.map(\.long)
            let suggestion = Suggestion.closest(to: String(name), among: known).map { "--" + $0 }
            throw error(.unknownOption("--" + name, suggestion: suggestion))
        }
        guard option.takesValue else {
            if let inline { throw error(.unexpectedValue(option: option.longName, value: inline)) }
            setFlag(option)
            return
        }
        if let inline {
            try store(inline, for: option)
        } else {
            try store(nextValue(args, &index, typed: option.longName), for: option)
        }
    }

    /// `-a`, `-abc` (bundled flags), `-xVALUE` or `-x VALUE`.
    private mutating func readShorts(
        _ word: String, _ args: ArraySlice<String>, _ index: inout Int
    ) throws(ArgumentError) {
        var letters = word.dropFirst()
        while let letter = letters.popFirst() {
            guard let option = options.first(where: { $0.short == letter }) else {
                throw unknownShort(letter, in: word)
            }
            guard option.takesValue else {
                setFlag(option)
                continue
            }
            let typed = "-" + String(letter)
            try store(letters.isEmpty ? nextValue(args, &index, typed: typed) : String(letters), for: option)
            return
        }
    }

    /// An unknown letter of `word`: when the whole word reads as a long option with one dash
    /// (`-online`), the error names the word and suggests the long option.
    private func unknownShort(_ letter: Character, in word: String) -> ArgumentError {
        let body = String(word.dropFirst())
        if body.count > 1 {
            let known = options.filter { !$0.hidden }.map(\.long)
            if let long = Suggestion.closest(to: body, among: known) {
                return error(.unknownOption(word, suggestion: "--" + long))
            }
        }
        return error(.unknownOption("-" + String(letter), suggestion: nil))
    }

    private func nextValue(
        _ args: ArraySlice<String>, _ index: inout Int, typed: String
    ) throws(ArgumentError) -> String {
        guard index < args.endIndex else { throw error(.missingValue(option: typed)) }
        defer { index += 1 }
        return args[index]
    }

    private mutating func setFlag(_ option: OptionSpec) {
        result.flags.insert(option.long)
        result.sources[option.long] = .commandLine
    }

    private mutating func store(_ value: String, for option: OptionSpec) throws(ArgumentError) {
        if result.values[option.long] != nil && !option.repeatable {
            throw error(.notRepeatable(option.longName))
        }
        try check(value, option.completion, name: option.longName)
        result.values[option.long, default: []].append(value)
        result.sources[option.long] = .commandLine
    }

    /// Rejects a value outside a `.values` set.
    private func check(_ value: String, _ completion: CompletionKind, name: String) throws(ArgumentError) {
        guard let allowed = completion.allowedValues, !allowed.contains(value) else { return }
        throw error(.invalidValue(option: name, value: value, expected: Self.oneOf(allowed)))
    }

    /// Enforces the subcommand's `OptionRule`s: only what the command line gave can conflict
    /// (an environment fallback yields to a typed option), and a default never satisfies a need.
    func checkRules() throws(ArgumentError) {
        for rule in command.rules {
            switch rule.kind {
            case .exclusive(let names):
                let given = names.filter { result.sources[$0] == .commandLine }
                if given.count > 1 { throw error(.conflictingOptions("--" + given[0], "--" + given[1], reason: rule.reason)) }
            case .requires(let name, let other):
                let otherGiven = result.sources[other].map { $0 != .defaultValue } ?? false
                if result.sources[name] == .commandLine && !otherGiven {
                    throw error(.missingOption("--" + name, needs: "--" + other, reason: rule.reason))
                }
            }
        }
    }

    /// Fills absent options from the environment, then from their defaults.
    mutating func applyFallbacks(_ environment: [String: String]) throws(ArgumentError) {
        for option in options where result.sources[option.long] == nil {
            if let variable = option.env, let value = environment[variable], !value.isEmpty {
                if option.takesValue {
                    try check(value, option.completion, name: option.longName)
                    result.values[option.long] = [value]
                    result.sources[option.long] = .environment(variable)
                } else if !["0", "false", "no"].contains(value.lowercased()) {
                    result.flags.insert(option.long)
                    result.sources[option.long] = .environment(variable)
                }
            } else if let value = option.defaultValue, option.takesValue {
                result.values[option.long] = [value]
                result.sources[option.long] = .defaultValue
            }
        }
    }

    /// Hands the positional words to the declared positionals, in order: required ones first
    /// claim a word each, optional ones take what is left, a variadic last one takes the rest.
    mutating func assignPositionals() throws(ArgumentError) {
        let declared = command.positionals
        var spare = max(0, words.count - declared.filter { !$0.optional }.count)
        var next = 0
        for positional in declared {
            let remaining = words.count - next
            var take = min(1, remaining)
            if positional.variadic {
                take = remaining
            } else if positional.optional {
                take = min(take, spare)
                spare -= take
            }
            if take == 0 && !positional.optional { throw error(.missingPositional(positional.name)) }
            let taken = Array(words[next..<next + take])
            for word in taken { try check(word, positional.completion, name: positional.name) }
            if !taken.isEmpty { result.arguments[positional.name] = taken }
            next += take
        }
        if next < words.count { throw error(.tooManyPositionals(words[next])) }
        result.positionals = words
    }

    private func error(_ reason: ArgumentError.Reason) -> ArgumentError {
        ArgumentError(reason, tool: spec.name, command: result.isDefault ? nil : command.name)
    }

    /// `crop or pad`, `one of text, json, vcf`.
    static func oneOf(_ words: [String]) -> String {
        words.count == 2 ? words[0] + " or " + words[1] : "one of " + words.joined(separator: ", ")
    }
}
