/// The `--help` text of a tool and of each subcommand: a summary that fits a screen (usage, one
/// paragraph, a row per argument, subcommand and option with the first sentence of its help, and
/// where the manual is). The explanations, rules and examples are the man page's
/// (`ManPageRenderer`, from the same specs). Wrapped at 80 columns; hidden items are left out.
/// The output is deterministic and ends in a newline.
public enum HelpRenderer {
    /// Columns the text is wrapped at.
    public static let width = 80
    private static let labelLimit = 28

    /// Help for the tool: usage, summary, subcommands, the default subcommand's arguments and
    /// options if it has one, and the common options by name.
    public static func tool(_ spec: ToolSpec) -> String {
        var usage: [String] = []
        if let main = spec.defaultCommand { usage.append(usageLine(spec.name, main)) }
        if !spec.visibleSubcommands.isEmpty { usage.append(spec.name + " [OPTIONS] COMMAND [ARGS...]") }
        var sections = [usageBlock(usage), TextLayout.wrap(TextLayout.sentence(spec.summary), width: width)]
        let commands = spec.visibleSubcommands.map { (label: $0.name, text: $0.summary) }
        let main = spec.defaultCommand
        let own = main?.visibleOptions ?? []
        let arguments = main.map(argumentRows) ?? []
        let globals = spec.globalOptions.filter { !$0.hidden }
        let labels = TextLayout.labelWidth(
            commands.map(\.label) + arguments.map(\.label) + own.map(optionLabel), limit: labelLimit)
        sections.append(section("Commands:", commands, labels))
        sections.append(section("Arguments:", arguments, labels))
        sections.append(section("Options:", own.map(optionRow), labels))
        sections.append(commonOptionList(globals, tool: spec.name))
        var pointer = "The manual: man \(spec.name)."
        if !commands.isEmpty {
            pointer = "Run '\(spec.name) COMMAND --help' for the options of one command. " + pointer
        }
        sections.append(TextLayout.wrap(pointer, width: width))
        return render(sections)
    }

    /// Help for one subcommand: usage, summary, arguments, its options and the common options by name.
    public static func command(_ command: CommandSpec, in spec: ToolSpec) -> String {
        var sections = [usageBlock([usageLine(spec.name + " " + command.name, command)])]
        sections.append(TextLayout.wrap(command.summary, width: width))
        let arguments = argumentRows(command)
        let own = command.visibleOptions
        let globals = spec.globalOptions.filter { !$0.hidden }
        let labels = TextLayout.labelWidth(arguments.map(\.label) + own.map(optionLabel), limit: labelLimit)
        sections.append(section("Arguments:", arguments, labels))
        sections.append(section("Options:", own.map(optionRow), labels))
        sections.append(commonOptionList(globals, tool: spec.name))
        sections.append(TextLayout.wrap("The manual, with examples: man \(spec.name) (\(command.name) under COMMANDS).", width: width))
        return render(sections)
    }

    /// The options every command takes, by name, as one paragraph: the man page's OPTIONS
    /// explains them, and each help would otherwise repeat the same dozen rows.
    private static func commonOptionList(_ options: [OptionSpec], tool: String) -> [String] {
        guard !options.isEmpty else { return [] }
        let names = options.map { option in
            let name = (option.shortName.map { $0 + "/" } ?? "") + option.longName + (option.valueName.map { " " + $0 } ?? "")
            return String(name.map { $0 == " " ? TextLayout.glue : $0 })
        }
        return TextLayout.wrap("Common options: " + names.joined(separator: ", ") + " (man \(tool), OPTIONS).", width: width)
    }

    /// `xmpp-roster remove [OPTIONS] JID`.
    static func usageLine(_ prefix: String, _ command: CommandSpec) -> String {
        ([prefix, "[OPTIONS]"] + command.positionals.map(\.usage)).joined(separator: " ")
    }

    /// `-a, --account JID` or `    --json`.
    static func optionLabel(_ option: OptionSpec) -> String {
        let short = option.shortName.map { $0 + ", " } ?? "    "
        return short + option.longName + (option.valueName.map { " " + $0 } ?? "")
    }

    /// The first sentence of the help followed by `[values: …]`, `[default: …]`, `[env: …]`,
    /// `[repeatable]`.
    static func optionText(_ option: OptionSpec) -> String {
        var notes: [String] = []
        if let allowed = option.completion.allowedValues { notes.append("values: " + allowed.joined(separator: ", ")) }
        if let value = option.defaultValue, option.takesValue { notes.append("default: " + value) }
        if let variable = option.env { notes.append("env: " + variable) }
        if option.repeatable { notes.append("repeatable") }
        return ([TextLayout.firstSentence(option.help)] + notes.map(note)).joined(separator: " ")
    }

    private static func optionRow(_ option: OptionSpec) -> (label: String, text: String) {
        (optionLabel(option), optionText(option))
    }

    private static func argumentRows(_ command: CommandSpec) -> [(label: String, text: String)] {
        command.positionals.map { positional in
            let values = positional.completion.allowedValues.map { [note("values: " + $0.joined(separator: ", "))] }
            return (positional.name, ([TextLayout.firstSentence(positional.help)] + (values ?? [])).joined(separator: " "))
        }
    }

    /// `[default: 15]`, kept on one line.
    private static func note(_ text: String) -> String {
        "[" + String(text.map { $0 == " " ? TextLayout.glue : $0 }) + "]"
    }

    private static func usageBlock(_ lines: [String]) -> [String] {
        lines.enumerated().map { ($0.offset == 0 ? "Usage: " : "       ") + $0.element }
    }

    private static func section(
        _ title: String, _ rows: [(label: String, text: String)], _ labelWidth: Int
    ) -> [String] {
        rows.isEmpty ? [] : [title] + TextLayout.table(rows, labelWidth: labelWidth, width: width)
    }

    /// Non-empty blocks separated by blank lines.
    private static func render(_ blocks: [[String]]) -> String {
        blocks.filter { !$0.isEmpty }.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    }
}
