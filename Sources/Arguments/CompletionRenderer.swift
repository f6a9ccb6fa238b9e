import TextFormats

/// Shell completion scripts generated from a `ToolSpec`: bash, zsh and fish.
///
/// Every script completes subcommands, options, option values (`.values` words, files,
/// directories) and positionals; JIDs and other dynamic candidates come from
/// `TOOL __complete KIND [--account JID]` (see `CompletionRequest`), passing on the account
/// named on the command line being completed. Hidden subcommands and options are not offered.
public enum CompletionRenderer {
    /// The shell-safe form of the tool name: `xmpp_roster`.
    static func identifier(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// `-a`, `--account`: how `option` can be typed.
    static func spellings(_ option: OptionSpec) -> [String] {
        (option.shortName.map { [$0] } ?? []) + [option.longName]
    }

    /// Every spelling of every option that takes a value, in any subcommand: completion scripts
    /// skip the word after one of these when looking for the subcommand.
    static func valueOptionSpellings(_ spec: ToolSpec) -> [String] {
        var seen: [String] = []
        for option in spec.globalOptions + spec.subcommands.flatMap(\.options) where option.takesValue {
            for spelling in spellings(option) where !seen.contains(spelling) { seen.append(spelling) }
        }
        return seen
    }

    /// Names of every subcommand, hidden ones included: a word that is none of these is the
    /// default subcommand's first argument.
    static func allCommandNames(_ spec: ToolSpec) -> [String] {
        spec.subcommands.map(\.name)
    }

    /// The visible subcommands, and the default one (even when hidden) whose arguments and
    /// options apply when no subcommand word is given.
    static func completedCommands(_ spec: ToolSpec) -> [CommandSpec] {
        var commands = spec.visibleSubcommands
        if let main = spec.defaultCommand, !commands.contains(main) { commands.append(main) }
        return commands
    }

    /// File extensions in both cases, as shells match them case-sensitively: `png PNG`.
    static func extensionVariants(_ extensions: [String]) -> [String] {
        var variants: [String] = []
        for name in extensions {
            for variant in [name.lowercased(), name.uppercased()] where !variants.contains(variant) {
                variants.append(variant)
            }
        }
        return variants
    }

    /// `text` inside single quotes for sh-like shells (bash, zsh): `'it'\''s'`.
    static func singleQuoted(_ text: String) -> String {
        ShellWord.quoted(text) ?? "''"
    }

    /// The first line of a help text, for one-line descriptions in menus.
    static func oneLine(_ text: String) -> String {
        String(text.split(separator: "\n").first ?? "")
    }
}
