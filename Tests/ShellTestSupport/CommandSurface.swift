// Test support only: a release build (make), which has no XCTest, compiles this module empty.
#if canImport(XCTest)
import Arguments

/// The subcommand words and long options one output shows a user (help, a man page, a
/// completion script), read back from its text, to compare with what the spec declares.
public struct CommandSurface: Equatable, CustomStringConvertible {
    public var subcommands: Set<String> = []
    public var options: Set<String> = []

    public var description: String { "commands \(subcommands.sorted()), options \(options.sorted())" }

    public init(subcommands: Set<String> = [], options: Set<String> = []) {
        self.subcommands = subcommands
        self.options = options
    }

    /// What the spec declares visible. The default subcommand's word is left out everywhere:
    /// its first argument takes the place of a subcommand word (`xmpp-login JID`), so the
    /// completions offer that argument rather than the word.
    public init(_ spec: ToolSpec) {
        subcommands = Set(spec.visibleSubcommands.map(\.name).filter { $0 != spec.defaultSubcommand })
        let commands = spec.visibleSubcommands + (spec.defaultCommand.map { [$0] } ?? [])
        options = Set((spec.globalOptions + commands.flatMap(\.options)).filter { !$0.hidden }.map(\.longName))
    }

    /// The subcommand names in the "Commands:" rows of a tool's help (continuation lines aside).
    public static func commands(inHelp page: String) -> [String] {
        var found: [String] = []
        var inCommands = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "Commands:" {
                inCommands = true
            } else if line.isEmpty {
                inCommands = false
            } else if inCommands, line.hasPrefix("  "), line.dropFirst(2).first != " " {
                found.append(String(line.dropFirst(2).prefix { $0 != " " }))
            }
        }
        return found
    }

    /// The long options in the option rows of a help page and in its "Common options:" paragraph.
    public static func options(inHelp page: String) -> Set<String> {
        var found: Set<String> = []
        for line in page.split(separator: "\n") where line.hasPrefix("  -") || line.hasPrefix("      --") {
            if let long = line.split(separator: " ").first(where: { $0.hasPrefix("--") }) { found.insert(String(long)) }
        }
        for paragraph in page.components(separatedBy: "\n\n") where paragraph.hasPrefix("Common options: ") {
            for word in paragraph.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "/" || $0 == "," || $0 == "(" }) {
                if word.hasPrefix("--") { found.insert(String(word)) }
            }
        }
        return found
    }

    /// From the `.Cm NAME` of the synopsis and command list, and every `Fl \-NAME`.
    public init(man source: String, defaultSubcommand: String?) {
        for line in source.split(separator: "\n") {
            let words = line.split(separator: " ")
            if let index = words.firstIndex(of: "Cm"), index + 1 < words.count, words[0] == ".Cm" || words[0] == ".It",
                words[index + 1] != defaultSubcommand ?? ""
            {
                subcommands.insert(String(words[index + 1]))
            }
            for (index, word) in words.enumerated() where word == "Fl" && index + 1 < words.count {
                let name = words[index + 1]
                if name.hasPrefix("\\-") { options.insert("-" + name.replacing("\\-", with: "-")) }
            }
        }
    }

    /// From the `commands=(` menu and every `--NAME` in `_arguments` specs (not in descriptions).
    public init(zsh script: String) {
        var inMenu = false
        for line in script.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            if trimmed == "commands=(" {
                inMenu = true
            } else if trimmed == ")" {
                inMenu = false
            } else if inMenu {
                subcommands.insert(String(trimmed.dropFirst().prefix { $0 != ":" }))
            }
            if trimmed.hasPrefix("'") || trimmed.hasPrefix("_arguments") {
                options.formUnion(Self.longOptions(in: String(trimmed.prefix { $0 != "[" })))
            }
        }
    }

    /// From the `-a NAME` words offered before any subcommand, and every `-l NAME`.
    public init(fish script: String) {
        for line in script.split(separator: "\n") where line.hasPrefix("complete ") {
            let words = line.split(separator: " ")
            for (index, word) in words.enumerated() where index + 1 < words.count {
                if word == "-l" { options.insert("--" + words[index + 1]) }
                if word == "-a", !words[index + 1].hasPrefix("'"), line.contains("_at \"\" 0") {
                    subcommands.insert(String(words[index + 1]))
                }
            }
        }
    }

    /// By running bash completion through `complete` (words → offers): the words offered
    /// first (JIDs aside), and the options offered after `--` before any subcommand and after each.
    public init(bash spec: ToolSpec, complete: ([String]) throws -> [String]) throws {
        subcommands = Set(try complete([spec.name, ""]).filter { !$0.contains("@") })
        options = Set(try complete([spec.name, "--"]))
        for command in spec.visibleSubcommands {
            options.formUnion(try complete([spec.name, command.name, "--"]))
        }
    }

    private static func longOptions(in line: String) -> [String] {
        var found: [String] = []
        var rest = Substring(line)
        while let range = rest.range(of: "--") {
            let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if let first = name.first, first.isLetter { found.append("--" + name) }
            rest = rest[range.upperBound...]
        }
        return found
    }
}
#endif
