extension CompletionRenderer {
    /// A zsh completion script: install it as `_TOOL` in a directory of `$fpath`, or `source` it
    /// after `compinit`.
    public static func zsh(_ spec: ToolSpec) -> String {
        let id = "_" + identifier(spec.name)
        var lines = [
            "#compdef \(spec.name)",
            "# zsh completion for \(spec.name). Generated from its argument spec; do not edit.",
            "",
        ]
        lines += zshDynamic(spec, id)
        lines += [
            "", "\(id)() {", "  local curcontext=$curcontext state state_descr line ret=1", "  local -A opt_args",
        ]
        lines.append("  local -a common")
        lines += ["  common=("] + spec.globalOptions.filter { !$0.hidden }.map { "    " + zshOption($0, id) } + ["  )"]
        let mainOptions = spec.defaultCommand?.visibleOptions.map { "    " + zshOption($0, id) + " \\" } ?? []
        lines +=
            ["  _arguments -C -s -S -A '-*' : $common \\"] + mainOptions + [
                "    '1: :\(id)__commands' \\",
                "    '*:: :->argument' && ret=0",
                "  if [[ $state == argument ]]; then",
                "    local \(id)_account=\(zshAccount(spec))",
                "    curcontext=${curcontext%:*:*}:\(spec.name)-$words[1]:",
                "    case $words[1] in",
            ]
        for command in spec.visibleSubcommands where command.name != spec.defaultSubcommand {
            let arguments = zshArguments(command.visibleOptions, command.positionals, id)
            lines += ["      (\(command.name))"] + arguments + ["        ;;"]
        }
        if let main = spec.defaultCommand {
            let rest = Array(main.positionals.dropFirst())
            lines += ["      (*)"] + zshArguments(main.visibleOptions, rest, id) + ["        ;;"]
        }
        lines += ["    esac", "  fi", "  return ret", "}", ""]
        lines += zshCommands(spec, id)
        lines += [
            "",
            "if [ \"$funcstack[1]\" = \"\(id)\" ]; then",
            "  \(id) \"$@\"",
            "else",
            "  compdef \(id) \(spec.name)",
            "fi",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// The helper listing dynamic candidates. `_arguments` calls actions with compadd options
    /// before the action's own words, so the kind is the last argument.
    private static func zshDynamic(_ spec: ToolSpec, _ id: String) -> [String] {
        var lines = [
            "# Candidates the tool lists offline: '\(spec.name) \(CompletionRequest.subcommand) KIND', one per line.",
            "# Usage: \(id)__dynamic [COMPADD-OPTION...] KIND",
            "(( $+functions[\(id)__dynamic] )) ||",
            "\(id)__dynamic() {",
            "  local kind=${@[-1]}",
            "  local -a candidates request",
            "  request=(\(CompletionRequest.subcommand) $kind)",
        ]
        if let account = spec.accountOption {
            lines += [
                "  local account=\(zshAccount(spec))",
                "  [[ -z $account ]] && account=$\(id)_account",
                "  [[ -n $account ]] && request+=(\(account.longName) $account)",
            ]
        }
        lines += [
            "  candidates=(${(f)\"$(_call_program $kind \(spec.name) ${(q)request} 2>/dev/null)\"})",
            "  if (( $# > 1 )); then",
            "    compadd \"${@[1,-2]}\" -a candidates",
            "  else",
            "    _wanted $kind expl $kind compadd -a candidates",
            "  fi",
            "}",
        ]
        return lines
    }

    /// The account option's value as `_arguments` recorded it in `opt_args`.
    private static func zshAccount(_ spec: ToolSpec) -> String {
        guard let account = spec.accountOption else { return "" }
        let keys = spellings(account).map { "${opt_args[\($0)]" }
        return keys.joined(separator: ":-") + String(repeating: "}", count: keys.count)
    }

    private static func zshArguments(
        _ options: [OptionSpec], _ positionals: [PositionalSpec], _ id: String
    ) -> [String] {
        var specs = options.map { zshOption($0, id) }
        for positional in positionals {
            let colons = positional.variadic ? "*:" : positional.optional ? "::" : ":"
            specs.append(
                singleQuoted(colons + zshMessage(positional.name) + ":" + zshAction(positional.completion, id)))
        }
        let tail = specs.map { " \\\n          " + $0 }.joined()
        return ["        _arguments -s -S : $common" + tail + " && ret=0"]
    }

    /// One `_arguments` spec: `'(-a --account)'{-a+,--account=}'[help]:JID:action'`.
    private static func zshOption(_ option: OptionSpec, _ id: String) -> String {
        let help = "[" + zshDescription(option.help) + "]"
        let value = option.valueName.map { ":" + zshMessage($0) + ":" + zshAction(option.completion, id) } ?? ""
        let isBuiltin = option == .help || option == .version
        let names = spellings(option).map { option.takesValue ? $0 + ($0.hasPrefix("--") ? "=" : "+") : $0 }
        let exclusion =
            isBuiltin
            ? "(- *)"
            : option.repeatable ? "*" : names.count > 1 ? "(" + spellings(option).joined(separator: " ") + ")" : ""
        let quotedExclusion = exclusion.isEmpty ? "" : singleQuoted(exclusion)
        if names.count == 1 { return quotedExclusion + singleQuoted(names[0] + help + value) }
        return quotedExclusion + "{" + names.joined(separator: ",") + "}" + singleQuoted(help + value)
    }

    /// The action completing `kind` inside an `_arguments` spec.
    private static func zshAction(_ kind: CompletionKind, _ id: String) -> String {
        switch kind {
        case .none: return " "
        case .file(let extensions): return zshFiles(extensions)
        case .directory: return "_files -/"
        case .values(let words): return "(" + words.joined(separator: " ") + ")"
        case .accounts, .contacts, .custom: return "\(id)__dynamic " + (kind.dynamicKind ?? "")
        }
    }

    /// `_files`, or `_files -g "*.(png|PNG)"` for some extensions.
    private static func zshFiles(_ extensions: [String]) -> String {
        let variants = extensionVariants(extensions)
        if variants.isEmpty { return "_files" }
        return "_files -g \"*.(" + variants.joined(separator: "|") + ")\""
    }

    private static func zshCommands(_ spec: ToolSpec, _ id: String) -> [String] {
        var lines = [
            "(( $+functions[\(id)__commands] )) ||", "\(id)__commands() {", "  local ret=1", "  local -a commands",
        ]
        let visible = spec.visibleSubcommands.filter { $0.name != spec.defaultSubcommand }
        lines += ["  commands=("] + visible.map { "    " + singleQuoted($0.name + ":" + oneLine($0.summary)) } + ["  )"]
        lines.append("  _describe -t commands '\(spec.name) command' commands && ret=0")
        if let first = spec.defaultCommand?.positionals.first, first.completion != .none {
            let action = zshAction(first.completion, id)
            let call = first.completion.allowedValues.map { "compadd -- " + $0.joined(separator: " ") } ?? action
            lines.append("  " + call + " && ret=0")
        }
        return lines + ["  return ret", "}"]
    }

    /// Text for `[...]`: brackets, colons and backslashes escaped.
    private static func zshDescription(_ text: String) -> String {
        var out = ""
        for scalar in oneLine(text).unicodeScalars {
            if "[]:\\".unicodeScalars.contains(scalar) { out.append("\\") }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// A message field of a spec (`JID`): colons escaped.
    private static func zshMessage(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.flatMap { $0 == ":" ? ["\\", ":"] : [$0] }))
    }
}
