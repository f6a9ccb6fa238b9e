extension ToolSpec {
    /// Mistakes in the spec itself, one sentence each; empty when the spec is sound. Generated
    /// scripts and pages embed names unquoted, so names are held to a safe alphabet here.
    /// Each tool's tests should assert this is empty.
    public func problems() -> [String] {
        var found: [String] = []
        if !Self.isName(name) { found.append("tool name '\(name)' is not lower-case letters, digits and '-'") }
        if let main = defaultSubcommand, command(named: main) == nil {
            found.append("default subcommand '\(main)' is not declared")
        }
        var seen: Set<String> = []
        for command in subcommands {
            if !Self.isName(command.name) { found.append("subcommand name '\(command.name)' is not safe") }
            if !seen.insert(command.name).inserted { found.append("subcommand '\(command.name)' is declared twice") }
            found += optionProblems(options(for: command), in: command.name)
            found += positionalProblems(command)
            let accepted = Set(options(for: command).map(\.long))
            for rule in command.rules {
                for name in rule.names where !accepted.contains(name) {
                    found.append("\(command.name): a rule names --\(name), which it does not accept")
                }
            }
        }
        if subcommands.isEmpty { found += optionProblems(globalOptions, in: name) }
        return found
    }

    private func optionProblems(_ options: [OptionSpec], in scope: String) -> [String] {
        var found: [String] = []
        var longs: Set<String> = []
        var shorts: Set<Character> = []
        for option in options {
            if !Self.isName(option.long) { found.append("\(scope): option name '\(option.long)' is not safe") }
            if !longs.insert(option.long).inserted {
                found.append("\(scope): option --\(option.long) is declared twice")
            }
            if let short = option.short {
                if !(short.isASCII && (short.isLetter || short.isNumber)) {
                    found.append("\(scope): short option '\(short)' is not a letter or digit")
                }
                if !shorts.insert(short).inserted { found.append("\(scope): short option -\(short) is declared twice") }
            }
            if let variable = option.env, !Self.isVariable(variable) {
                found.append("\(scope): environment variable '\(variable)' is not A-Z, 0-9 and '_'")
            }
            if !option.takesValue && (option.completion != .none || option.defaultValue != nil || option.repeatable) {
                found.append("\(scope): flag --\(option.long) has a completion, default or repeatable mark")
            }
            if let value = option.valueName, value.isEmpty || value.contains(" ") {
                found.append("\(scope): option --\(option.long) has an empty or spaced value name")
            }
            if let value = option.defaultValue, option.completion.allowedValues?.contains(value) == false {
                found.append("\(scope): default '\(value)' of --\(option.long) is not one of its values")
            }
            found += completionProblems(option.completion, "\(scope): --\(option.long)")
        }
        return found
    }

    private func positionalProblems(_ command: CommandSpec) -> [String] {
        var found: [String] = []
        var sawOptional = false
        for (index, positional) in command.positionals.enumerated() {
            let scope = "\(command.name): \(positional.name)"
            if positional.variadic && index != command.positionals.count - 1 {
                found.append("\(scope) is variadic but not last")
            }
            if sawOptional && !positional.optional { found.append("\(scope) is required after an optional argument") }
            sawOptional = sawOptional || positional.optional
            if positional.name.isEmpty || positional.name.contains(" ") {
                found.append("\(scope) has an empty or spaced name")
            }
            found += completionProblems(positional.completion, scope)
        }
        return found
    }

    /// Words, extensions and kinds are pasted into shell scripts as they are.
    private func completionProblems(_ kind: CompletionKind, _ scope: String) -> [String] {
        let safe: (String) -> Bool = { word in
            !word.isEmpty && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.+@/".contains($0)) }
        }
        switch kind {
        case .values(let words) where words.isEmpty || !words.allSatisfy(safe):
            return ["\(scope): values must be plain words"]
        case .file(let extensions) where !extensions.allSatisfy({ safe($0) && !$0.contains(".") }):
            return ["\(scope): file extensions must be plain words without dots"]
        case .custom(let kind) where !Self.isName(kind):
            return ["\(scope): custom completion kind '\(kind)' is not safe"]
        default:
            return []
        }
    }

    /// Upper-case ASCII letters, digits and `_`.
    static func isVariable(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }
    }

    /// Lower-case ASCII letters, digits and inner `-`: safe unquoted in every shell.
    static func isName(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first.isNumber, text.last != "-" else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
    }
}
