extension CompletionRenderer {
    /// A fish completion script: install it as `TOOL.fish` in a directory of
    /// `$fish_complete_path`, or `source` it.
    public static func fish(_ spec: ToolSpec) -> String {
        let id = "__" + identifier(spec.name)
        var lines = [
            "# fish completion for \(spec.name). Generated from its argument spec; do not edit.",
            "",
        ]
        lines += fishHelpers(spec, id)
        lines += ["", "complete -c \(spec.name) -f"]
        lines += spec.globalOptions.filter { !$0.hidden }.map { fishOption($0, spec, id, condition: nil) }
        for command in completedCommands(spec) {
            // The default subcommand is in scope before any word, its first argument included.
            let isMain = command.name == spec.defaultSubcommand
            let scope = "\(id)_at \(command.name) +0" + (isMain ? "; or \(id)_at \"\" 0" : "")
            lines += command.visibleOptions.map { fishOption($0, spec, id, condition: scope) }
            for (index, positional) in command.positionals.enumerated() {
                guard let values = fishValues(positional.completion, id) else { continue }
                var positions = [command.name + " " + (positional.variadic ? "+" : "") + String(index)]
                if isMain && index == 0 { positions.insert("\"\" 0", at: 0) }
                for position in positions {
                    lines.append("complete -c \(spec.name) -n \(fishQuoted("\(id)_at " + position)) " + values)
                }
            }
        }
        for command in spec.visibleSubcommands where command.name != spec.defaultSubcommand {
            let summary = fishQuoted(oneLine(command.summary))
            lines.append(
                "complete -c \(spec.name) -n \(fishQuoted("\(id)_at \"\" 0")) -a \(command.name) -d \(summary)")
        }
        return (lines + [""]).joined(separator: "\n")
    }

    private static func fishHelpers(_ spec: ToolSpec, _ id: String) -> [String] {
        let names = allCommandNames(spec).joined(separator: " ")
        let valued = valueOptionSpellings(spec).joined(separator: " ")
        let unknown = spec.defaultSubcommand.map { "set cmd \($0)\n                set count 1" } ?? "set cmd '?'"
        var lines = [
            "# Prints the subcommand being completed and how many of its arguments precede the cursor.",
            "function \(id)_position",
            "    set -l tokens (commandline -opc)",
            "    set -e tokens[1]",
            "    set -l cmd ''",
            "    set -l count 0",
            "    set -l skip 0",
            "    set -l ended 0",
            "    for token in $tokens",
            "        if test $skip = 1",
            "            set skip 0",
            // An option is '-' and at least one more character. A regular expression, not the
            // glob '-?*': fish 4 no longer takes '?' as a wildcard (it would match only "-?...").
            "        else if test $ended = 0; and string match -q -r -- '^-.' $token",
            "            switch $token",
            "                case --",
            "                    set ended 1",
        ]
        if !valued.isEmpty { lines += ["                case \(valued)", "                    set skip 1"] }
        lines += [
            "            end",
            "        else if test -z \"$cmd\"",
            "            if contains -- $token \(names)",
            "                set cmd $token",
            "            else",
            "                \(unknown)",
            "            end",
            "        else",
            "            set count (math $count + 1)",
            "        end",
            "    end",
            "    printf '%s\\n' \"$cmd\" $count",
            "end",
            "",
            "# Succeeds when completing argument INDEX (from 0) of subcommand CMD ('' before any);",
            "# INDEX +N means N or later.",
            "function \(id)_at --argument-names cmd index",
            "    set -l position (\(id)_position)",
            "    test \"$position[1]\" = \"$cmd\"; or return 1",
            "    if string match -q -- '+*' $index",
            "        test $position[2] -ge (string sub -s 2 -- $index)",
            "    else",
            "        test $position[2] -eq $index",
            "    end",
            "end",
            "",
            "# Files ending in one of the given extensions, and directories.",
            "function \(id)_files",
            "    set -l token (commandline -ct)",
            "    for path in $token*",
            "        if test -d $path",
            "            printf '%s/\\n' $path",
            "        else if string match -q -r -- '\\.('(string join '|' $argv)')$' $path",
            "            printf '%s\\n' $path",
            "        end",
            "    end",
            "end",
            "",
            "# Candidates the tool lists offline: '\(spec.name) \(CompletionRequest.subcommand) KIND', one per line.",
            "function \(id)_dynamic --argument-names kind",
            "    set -l request \(CompletionRequest.subcommand) $kind",
        ]
        if let account = spec.accountOption {
            let spelled = spellings(account).joined(separator: " ")
            lines += [
                "    set -l tokens (commandline -opc)",
                "    for i in (seq (count $tokens))",
                "        switch $tokens[$i]",
                "            case \(spelled)",
                "                set -q tokens[(math $i + 1)]; and set request $request \(account.longName) $tokens[(math $i + 1)]",
                "            case '\(account.longName)=*'",
                "                set request $request \(account.longName) (string replace -- \(account.longName)= '' $tokens[$i])",
                "        end",
                "    end",
            ]
        }
        return lines + ["    command \(spec.name) $request 2>/dev/null", "end"]
    }

    /// `complete -c TOOL [-n COND] [-s a] -l account -x -a '(…)' -d 'help'`.
    private static func fishOption(_ option: OptionSpec, _ spec: ToolSpec, _ id: String, condition: String?) -> String {
        var parts = ["complete -c", spec.name]
        if let condition { parts += ["-n", fishQuoted(condition)] }
        if let short = option.short { parts += ["-s", String(short)] }
        parts += ["-l", option.long]
        if option.takesValue { parts.append(fishValues(option.completion, id) ?? "-x") }
        parts += ["-d", fishQuoted(oneLine(option.help))]
        return parts.joined(separator: " ")
    }

    /// The flags offering `kind`: `-r -F`, `-x -a 'a b'`, `-x -a '(__tool_dynamic contacts)'`;
    /// nil for `.none`.
    private static func fishValues(_ kind: CompletionKind, _ id: String) -> String? {
        switch kind {
        case .none: return nil
        case .file(let extensions):
            if extensions.isEmpty { return "-r -F" }
            return "-x -a " + fishQuoted("(\(id)_files " + extensionVariants(extensions).joined(separator: " ") + ")")
        case .directory: return "-x -a '(__fish_complete_directories)'"
        case .values(let words): return "-x -a " + fishQuoted(words.joined(separator: " "))
        case .accounts, .contacts, .custom:
            return "-x -a " + fishQuoted("(\(id)_dynamic " + (kind.dynamicKind ?? "") + ")")
        }
    }

    /// `text` in fish single quotes, where only `\\` and `\'` are escapes.
    private static func fishQuoted(_ text: String) -> String {
        // Scalars: a mark after ' or \ makes one Character that is neither, yet fish sees the quote.
        var out = String.UnicodeScalarView(["'"])
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "'" { out.append("\\") }
            out.append(scalar)
        }
        out.append("'")
        return String(out)
    }
}
