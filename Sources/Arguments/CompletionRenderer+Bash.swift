extension CompletionRenderer {
    /// A bash completion script: `source` it, or install it as
    /// `/usr/share/bash-completion/completions/TOOL`. Needs no bash-completion helpers.
    public static func bash(_ spec: ToolSpec) -> String {
        let id = "_" + identifier(spec.name)
        var lines = [
            "# bash completion for \(spec.name)                          -*- shell-script -*-",
            "# Generated from the \(spec.name) argument spec; do not edit.",
            "",
        ]
        lines += bashHelpers(spec, id)
        lines += ["", "\(id)() {"]
        lines += bashScan(spec, id)
        lines += bashValues(spec, id)
        lines += bashOptions(spec, id)
        lines += bashArguments(spec, id)
        lines += ["    return 0", "}", "", "complete -F \(id) \(spec.name)", ""]
        return lines.joined(separator: "\n")
    }

    private static func bashHelpers(_ spec: ToolSpec, _ id: String) -> [String] {
        var request = ["", "    local -a request=(\(CompletionRequest.subcommand) \"$1\")"]
        if let account = spec.accountOption {
            request.append("    [[ -n $account ]] && request+=(\(account.longName) \"$account\")")
        }
        return [
            "# Candidates the tool lists offline: '\(spec.name) \(CompletionRequest.subcommand) KIND', one per line.",
            "# A group or JID may hold a space or a quote: each candidate is offered quoted as the word",
            "# under the cursor is typed (bare or with backslashes: printf %q; after an opening ' or \":",
            "# escaped for that quote, which readline keeps and closes), so it stays one word.",
            "\(id)__dynamic() {",
            "    local line typed=\"$cur\" plain=\"\" quote=\"\" char escaped",
            "    local -i k",
        ] + request.dropFirst() + [
            #"    case "$typed" in"#,
            #"        \'*) quote="'"; plain="${typed#?}"; typed="" ;;"#,
            #"        \"*) quote='"'; typed="${typed#?}" ;;"#,
            #"    esac"#,
            #"    # What the typed word stands for: a backslash quotes the next character (inside "…" only \ " $ `)."#,
            #"    for ((k = 0; k < ${#typed}; k++)); do"#,
            #"        char="${typed:k:1}""#,
            #"        if [[ $char == "\\" ]] && (( k + 1 < ${#typed} )); then"#,
            #"            case "$quote${typed:k+1:1}" in ?|\"[\\\"\$\`]) k+=1; char="${typed:k:1}" ;; esac"#,
            #"        fi"#,
            #"        plain+="$char""#,
            #"    done"#,
            "    while IFS= read -r line; do",
            #"        [[ $line == "$plain"* ]] || continue"#,
            #"        case "$quote" in"#,
            #"            "'") line="${line//"'"/"'\\''"}" ;;"#,
            #"            '"')"#,
            #"                escaped="""#,
            #"                for ((k = 0; k < ${#line}; k++)); do"#,
            #"                    char="${line:k:1}""#,
            #"                    case "$char" in [\\\"\$\`]) escaped+="\\$char" ;; *) escaped+="$char" ;; esac"#,
            #"                done"#,
            #"                line="$escaped" ;;"#,
            #"            *) printf -v line '%q' "$line" ;;"#,
            #"        esac"#,
            #"        COMPREPLY+=("$line")"#,
            "    done < <(command \(spec.name) \"${request[@]}\" 2>/dev/null)",
            "}",
            "",
            "\(id)__words() {",
            "    local IFS=$' \\t\\n'",
            "    COMPREPLY+=($(compgen -W \"$1\" -- \"$cur\"))",
            "}",
            "",
            "# Files; with arguments, only those ending in one of these extensions (and directories).",
            "\(id)__files() {",
            "    local IFS=$'\\n' extension",
            "    compopt -o filenames 2>/dev/null",
            "    if (( $# == 0 )); then",
            "        COMPREPLY+=($(compgen -f -- \"$cur\"))",
            "        return",
            "    fi",
            "    COMPREPLY+=($(compgen -d -- \"$cur\"))",
            "    for extension in \"$@\"; do",
            "        COMPREPLY+=($(compgen -f -X \"!*.$extension\" -- \"$cur\"))",
            "    done",
            "}",
            "",
            "\(id)__directories() {",
            "    local IFS=$'\\n'",
            "    compopt -o filenames 2>/dev/null",
            "    COMPREPLY+=($(compgen -d -- \"$cur\"))",
            "}",
        ]
    }

    /// Walks the words before the cursor: finds the subcommand, counts its arguments, notes the
    /// account, and whether the cursor is on an option's value (`pending`).
    private static func bashScan(_ spec: ToolSpec, _ id: String) -> [String] {
        var lines = [
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" word cmd=\"\" pending=\"\" account=\"\" prefix=\"\"",
            "    local -i i=1 npos=0 ended=0",
            "    COMPREPLY=()",
            "    while (( i < COMP_CWORD )); do",
            "        word=\"${COMP_WORDS[i]}\"",
            "        i+=1",
            "        if [[ -n $pending ]]; then",
            "            [[ $word == \"=\" ]] && continue",
        ]
        if let account = spec.accountOption {
            lines.append(
                "            case \"$pending\" in \(spellings(account).joined(separator: "|"))) account=\"$word\" ;; esac"
            )
        }
        lines += [
            "            pending=\"\"",
            "        elif (( !ended )) && [[ $word == -?* ]]; then",
            "            case \"$word\" in",
            "                --) ended=1 ;;",
        ]
        if let account = spec.accountOption {
            lines.append("                \(account.longName)=*) account=\"${word#*=}\" ;;")
        }
        let valued = valueOptionSpellings(spec)
        if !valued.isEmpty { lines.append("                \(valued.joined(separator: "|"))) pending=\"$word\" ;;") }
        lines += [
            "            esac",
            "        elif [[ -z $cmd ]]; then",
            "            cmd=\"$word\"",
            "        else",
            "            npos+=1",
            "        fi",
            "    done",
        ]
        if let main = spec.defaultCommand {
            lines += [
                "    case \"$cmd\" in",
                "        \"\"|\(allCommandNames(spec).joined(separator: "|"))) ;;",
                "        *) cmd=\(main.name); npos+=1 ;;",
                "    esac",
            ]
        }
        lines += [
            "    if [[ -z $pending && $cur == --*=* ]] && (( !ended )); then",
            "        pending=\"${cur%%=*}\"; prefix=\"$pending=\"; cur=\"${cur#*=}\"",
            "    fi",
            "    [[ -n $pending && $cur == \"=\" ]] && cur=\"\"",
        ]
        return lines
    }

    /// Completes the value of the option before the cursor.
    private static func bashValues(_ spec: ToolSpec, _ id: String) -> [String] {
        var lines = ["    if [[ -n $pending ]]; then"]
        var perCommand: [String] = []
        for command in completedCommands(spec) {
            let cases = bashOptionCases(command.visibleOptions, id, indent: "                ")
            if !cases.isEmpty {
                perCommand += ["            \(bashPattern(command, spec)))", "                case \"$pending\" in"]
                perCommand += cases + ["                esac ;;"]
            }
        }
        if !perCommand.isEmpty { lines += ["        case \"$cmd\" in"] + perCommand + ["        esac"] }
        let common = bashOptionCases(spec.globalOptions.filter { !$0.hidden }, id, indent: "        ")
        if !common.isEmpty { lines += ["        case \"$pending\" in"] + common + ["        esac"] }
        lines += [
            "        [[ -n $prefix ]] && COMPREPLY=(\"${COMPREPLY[@]/#/$prefix}\")",
            "        return 0",
            "    fi",
        ]
        return lines
    }

    private static func bashOptionCases(_ options: [OptionSpec], _ id: String, indent: String) -> [String] {
        options.compactMap { option in
            guard option.takesValue, let call = bashCall(option.completion, id) else { return nil }
            return indent + "    " + spellings(option).joined(separator: "|") + ") " + call + " ;;"
        }
    }

    /// Offers options when the word starts with a dash.
    private static func bashOptions(_ spec: ToolSpec, _ id: String) -> [String] {
        var lines = ["    if [[ $cur == -* ]] && (( !ended )); then"]
        let perCommand = completedCommands(spec).filter { !$0.visibleOptions.isEmpty }
        if !perCommand.isEmpty {
            lines.append("        case \"$cmd\" in")
            for command in perCommand {
                let words = command.visibleOptions.flatMap(spellings).joined(separator: " ")
                lines.append("            \(bashPattern(command, spec))) \(id)__words \"\(words)\" ;;")
            }
            lines.append("        esac")
        }
        let common = spec.globalOptions.filter { !$0.hidden }.flatMap(spellings).joined(separator: " ")
        return lines + ["        \(id)__words \"\(common)\"", "        return 0", "    fi"]
    }

    /// Offers subcommands, then each subcommand's positionals by index.
    private static func bashArguments(_ spec: ToolSpec, _ id: String) -> [String] {
        let names = spec.visibleSubcommands.filter { $0.name != spec.defaultSubcommand }.map(\.name)
        var lines = ["    if [[ -z $cmd ]]; then"]
        if !names.isEmpty { lines.append("        \(id)__words \"\(names.joined(separator: " "))\"") }
        if let first = spec.defaultCommand?.positionals.first, let call = bashCall(first.completion, id) {
            lines.append("        " + call)
        }
        lines += ["        return 0", "    fi", "    case \"$cmd\" in"]
        for command in completedCommands(spec) {
            guard command.positionals.contains(where: { $0.completion != .none }) else { continue }
            lines += ["        \(command.name))", "            case $npos in"]
            for (index, positional) in command.positionals.enumerated() {
                let call = bashCall(positional.completion, id).map { " " + $0 } ?? ""
                lines.append("                \(positional.variadic ? "*" : String(index)))\(call) ;;")
            }
            lines += ["            esac ;;"]
        }
        return lines + ["    esac"]
    }

    /// The `case "$cmd"` pattern of `command`; the default subcommand also applies before any word.
    private static func bashPattern(_ command: CommandSpec, _ spec: ToolSpec) -> String {
        command.name == spec.defaultSubcommand ? command.name + "|\"\"" : command.name
    }

    /// The helper call completing `kind`; nil for `.none`.
    private static func bashCall(_ kind: CompletionKind, _ id: String) -> String? {
        switch kind {
        case .none: return nil
        case .file(let extensions): return (["\(id)__files"] + extensionVariants(extensions)).joined(separator: " ")
        case .directory: return "\(id)__directories"
        case .values(let words): return "\(id)__words \"\(words.joined(separator: " "))\""
        case .accounts, .contacts, .custom: return "\(id)__dynamic " + (kind.dynamicKind ?? "")
        }
    }
}
