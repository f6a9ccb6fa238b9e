/// The section 1 manual page of a tool, in mdoc(7): NAME, SYNOPSIS, DESCRIPTION, COMMANDS (each
/// subcommand with its arguments and options), OPTIONS (the common ones), ENVIRONMENT, FILES,
/// EXIT STATUS, EXAMPLES and SEE ALSO, in the order mdoc(7) and `mandoc -T lint` expect.
public enum ManPageRenderer {
    /// The page source for `spec`, dated `date` (`2024-05-01`).
    public static func render(_ spec: ToolSpec, date: String) -> String {
        page(spec).render(date: date)
    }

    /// The page as data, for callers that add sections before rendering.
    public static func page(_ spec: ToolSpec) -> ManualPage {
        let exits = spec.exitCodes.map { Definition(String($0.code), $0.meaning) }
        var examples: [ManualPage.Block] = []
        for example in spec.examples + spec.visibleSubcommands.flatMap(\.examples) {
            examples += [.paragraph(example.explanation), .literal(["$ " + example.command])]
        }
        return ManualPage(
            name: spec.name, section: "1", summary: spec.summary,
            sections: [
                .init("SYNOPSIS", [.markup(synopsis(spec))]),
                .init("DESCRIPTION", spec.description.map { .paragraph($0) }),
                .init("COMMANDS", commands(spec)),
                .init(
                    "OPTIONS",
                    spec.globalOptions.contains { !$0.hidden } ? [.markup(optionList(spec.globalOptions))] : []),
                .init(
                    "ENVIRONMENT",
                    spec.environmentEntries.isEmpty ? [] : [.definitions(spec.environmentEntries, style: .environment)]),
                .init("FILES", spec.files.isEmpty ? [] : [.definitions(spec.files, style: .path)]),
                .init("EXIT STATUS", exits.isEmpty ? [] : [.definitions(exits, style: .plain)]),
                .init("EXAMPLES", examples),
                .init("SEE ALSO", spec.seeAlso.isEmpty ? [] : [.references(spec.seeAlso)]),
            ])
    }

    /// One `.Nm` line per form: the default subcommand, the generic form with the common
    /// options, then each visible subcommand with its own options and arguments.
    private static func synopsis(_ spec: ToolSpec) -> [String] {
        var lines: [String] = []
        if let main = spec.defaultCommand {
            lines += [".Nm"] + main.visibleOptions.map(synopsisOption) + main.positionals.map { "." + positional($0) }
        }
        if !spec.visibleSubcommands.isEmpty {
            lines += [".Nm"] + spec.globalOptions.filter { !$0.hidden }.map(synopsisOption)
            lines += [".Ar command", ".Op Ar argument ..."]
        }
        for command in spec.visibleSubcommands {
            lines += [".Nm", ".Cm " + Roff.argument(command.name)]
            lines += command.visibleOptions.map(synopsisOption) + command.positionals.map { "." + positional($0) }
        }
        return lines
    }

    /// The default subcommand first (as its arguments), then each visible subcommand: its
    /// summary, discussion and options.
    private static func commands(_ spec: ToolSpec) -> [ManualPage.Block] {
        var entries: [(head: String, command: CommandSpec)] = []
        if let main = spec.defaultCommand {
            entries.append((main.positionals.map(positional).joined(separator: " "), main))
        }
        entries += spec.visibleSubcommands.filter { $0.name != spec.defaultSubcommand }.map { command in
            let arguments = command.positionals.map { " " + positional($0) }.joined()
            return ("Cm " + Roff.argument(command.name) + arguments, command)
        }
        guard !entries.isEmpty else { return [] }
        var lines = [".Bl -tag -width Ds"]
        for entry in entries {
            lines.append(".It " + (entry.head.isEmpty ? Roff.argument(entry.command.name) : entry.head))
            lines.append(Roff.text(entry.command.summary))
            for paragraph in entry.command.discussion { lines += [".Pp", Roff.text(paragraph)] }
            if !entry.command.rules.isEmpty {
                lines += [".Pp", Roff.text(entry.command.rules.map(\.sentence).joined(separator: " "))]
            }
            let arguments = entry.command.positionals.filter { !$0.help.isEmpty }
            if !arguments.isEmpty {
                lines.append(".Bl -tag -width Ds")
                for argument in arguments {
                    lines += [".It Ar " + Roff.argument(argument.name), Roff.text(argument.help)]
                }
                lines.append(".El")
            }
            if entry.command.options.contains(where: { !$0.hidden }) { lines += optionList(entry.command.options) }
        }
        return [.markup(lines + [".El"])]
    }

    /// A tagged list of the visible `options`, both forms in each head.
    private static func optionList(_ options: [OptionSpec]) -> [String] {
        var lines = [".Bl -tag -width Ds"]
        for option in options where !option.hidden {
            let value = option.valueName.map { " Ar " + Roff.argument($0) } ?? ""
            var forms = ["Fl " + Roff.flag(option.longName) + value]
            if let short = option.short { forms.insert("Fl " + Roff.argument(String(short)) + value, at: 0) }
            lines.append(".It " + forms.joined(separator: " , "))
            lines.append(Roff.text(option.help))
            if let allowed = option.completion.allowedValues {
                lines.append(Roff.text("One of: " + allowed.joined(separator: ", ") + "."))
            }
            if let value = option.defaultValue, option.takesValue {
                lines.append(Roff.text("The default is " + value + "."))
            }
            if option.repeatable { lines.append("May be given more than once.") }
            if let variable = option.env {
                lines += ["When absent, the value of", ".Ev " + Roff.argument(variable), "is used."]
            }
        }
        return lines + [".El"]
    }

    /// `.Op Fl a Ar JID`: the short form when there is one.
    private static func synopsisOption(_ option: OptionSpec) -> String {
        let name = option.short.map { Roff.argument(String($0)) } ?? Roff.flag(option.longName)
        return ".Op Fl " + name + (option.valueName.map { " Ar " + Roff.argument($0) } ?? "")
    }

    /// `Ar JID`, `Op Ar JID`, `Ar GROUP ...` or `Op Ar GROUP ...`.
    private static func positional(_ positional: PositionalSpec) -> String {
        let argument = "Ar " + Roff.argument(positional.name) + (positional.variadic ? " ..." : "")
        return positional.optional ? "Op " + argument : argument
    }
}
