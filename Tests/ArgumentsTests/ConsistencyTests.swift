import Arguments
import XCTest

/// Help, man page and the three completion scripts list exactly the same subcommands and long
/// options as the spec: each is read back from its output and compared.
final class ConsistencyTests: XCTestCase {
    private let specs = [Samples.roster, Samples.login, Samples.avatar]

    func testEveryOutputListsTheSameSubcommandsAndOptions() throws {
        let shell = try CompletionHarness()
        for spec in specs {
            let expected = Listing(spec)
            XCTAssertEqual(Listing(help: spec), expected, "help of \(spec.name)")
            XCTAssertEqual(
                Listing(man: ManPageRenderer.render(spec, date: "2024-05-01")), expected, "man page of \(spec.name)")
            XCTAssertEqual(Listing(zsh: CompletionRenderer.zsh(spec)), expected, "zsh script of \(spec.name)")
            XCTAssertEqual(Listing(fish: CompletionRenderer.fish(spec)), expected, "fish script of \(spec.name)")
            XCTAssertEqual(try Listing(bash: spec, shell), expected, "bash completion of \(spec.name)")
        }
    }
}

/// The subcommand words and long options one output shows.
private struct Listing: Equatable, CustomStringConvertible {
    var subcommands: Set<String> = []
    var options: Set<String> = []

    var description: String { "commands \(subcommands.sorted()), options \(options.sorted())" }

    /// What the spec declares visible (the default subcommand has no word of its own).
    init(_ spec: ToolSpec) {
        subcommands = Set(spec.visibleSubcommands.map(\.name).filter { $0 != spec.defaultSubcommand })
        let commands = spec.visibleSubcommands + (spec.defaultCommand.map { [$0] } ?? [])
        options = Set((spec.globalOptions + commands.flatMap(\.options)).filter { !$0.hidden }.map(\.longName))
    }

    /// From the "Commands:" section of the tool help, and the option rows of every help page.
    init(help spec: ToolSpec) {
        let tool = HelpRenderer.tool(spec)
        let pages = [tool] + spec.subcommands.map { HelpRenderer.command($0, in: spec) }
        var inCommands = false
        for line in tool.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "Commands:" {
                inCommands = true
            } else if line.isEmpty {
                inCommands = false
            } else if inCommands {
                subcommands.insert(String(line.split(separator: " ")[0]))
            }
        }
        for page in pages {
            for line in page.split(separator: "\n") where line.hasPrefix("  -") || line.hasPrefix("      --") {
                if let long = line.split(separator: " ").first(where: { $0.hasPrefix("--") }) {
                    options.insert(String(long))
                }
            }
        }
    }

    /// From `.It Cm NAME` entries and every `Fl \-NAME`.
    init(man source: String) {
        for line in source.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count >= 3, words[0] == ".It", words[1] == "Cm" { subcommands.insert(String(words[2])) }
            for (index, word) in words.enumerated() where word == "Fl" && index + 1 < words.count {
                let name = words[index + 1]
                if name.hasPrefix("\\-") { options.insert("-" + name.replacing("\\-", with: "-")) }
            }
        }
    }

    /// From the `commands=(` menu and every `--NAME` in `_arguments` specs.
    init(zsh script: String) {
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
                for token in Self.longOptions(in: String(trimmed)) { options.insert(token) }
            }
        }
    }

    /// From `-a NAME -d` lines offered before any word, and every `-l NAME`.
    init(fish script: String) {
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

    /// By running bash completion: the words offered first (JIDs aside), and the options
    /// offered after `--` for each subcommand and before any.
    init(bash spec: ToolSpec, _ shell: CompletionHarness) throws {
        subcommands = Set(try shell.bash(spec, [spec.name, ""]).filter { !$0.contains("@") })
        options = Set(try shell.bash(spec, [spec.name, "--"]))
        for command in spec.visibleSubcommands {
            options.formUnion(try shell.bash(spec, [spec.name, command.name, "--"]))
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
