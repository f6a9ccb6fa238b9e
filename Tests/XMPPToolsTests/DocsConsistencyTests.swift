import Arguments
import Foundation
import XCTest
import XMPPTools

/// For every tool in AllSpecs, `--help`, the checked-in man page and the checked-in bash, zsh
/// and fish scripts list exactly the subcommands and long options the spec declares: each is
/// read back from the text a user would see (bash by running the completion function).
final class DocsConsistencyTests: XCTestCase {
    func testHelpManAndCompletionsListTheSameCommandsAndOptions() throws {
        let bash = try BashCompletion()
        for spec in AllSpecs.tools {
            let expected = Listing(spec)
            XCTAssertEqual(try Listing(help: spec), expected, "--help of \(spec.name)")
            let man = try XCTUnwrap(DocsSupport.checkedIn(Documentation.Location.manPage(spec.name)))
            XCTAssertEqual(Listing(man: man, defaultSubcommand: spec.defaultSubcommand), expected, "man page of \(spec.name)")
            let zsh = try XCTUnwrap(DocsSupport.checkedIn(Documentation.Location.zsh(spec.name)))
            XCTAssertEqual(Listing(zsh: zsh), expected, "zsh script of \(spec.name)")
            let fish = try XCTUnwrap(DocsSupport.checkedIn(Documentation.Location.fish(spec.name)))
            XCTAssertEqual(Listing(fish: fish), expected, "fish script of \(spec.name)")
            XCTAssertEqual(try Listing(bash: spec, bash), expected, "bash completion of \(spec.name)")
        }
    }
}

/// The subcommand words and long options one output shows.
private struct Listing: Equatable, CustomStringConvertible {
    var subcommands: Set<String> = []
    var options: Set<String> = []

    var description: String { "commands \(subcommands.sorted()), options \(options.sorted())" }

    /// What the spec declares visible. The default subcommand's word is left out everywhere:
    /// its first argument takes the place of a subcommand word (`xmpp-login JID`), so the
    /// completions offer that argument rather than the word.
    init(_ spec: ToolSpec) {
        subcommands = Set(spec.visibleSubcommands.map(\.name).filter { $0 != spec.defaultSubcommand })
        let commands = spec.visibleSubcommands + (spec.defaultCommand.map { [$0] } ?? [])
        options = Set((spec.globalOptions + commands.flatMap(\.options)).filter { !$0.hidden }.map(\.longName))
    }

    /// From `TOOL --help` ("Commands:" rows) and `TOOL COMMAND --help` (option rows), as the
    /// parser answers them.
    init(help spec: ToolSpec) throws {
        let tool = try Self.help(["--help"], spec)
        var pages = [tool]
        var inCommands = false
        for line in tool.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "Commands:" {
                inCommands = true
            } else if line.isEmpty {
                inCommands = false
            } else if inCommands, line.hasPrefix("  "), line.dropFirst(2).first != " " {
                let name = String(line.dropFirst(2).prefix { $0 != " " })
                if name != spec.defaultSubcommand { subcommands.insert(name) }
                pages.append(try Self.help([name, "--help"], spec))
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

    private static func help(_ words: [String], _ spec: ToolSpec) throws -> String {
        guard case .help(let text) = try ArgumentParser.parse(words[...], spec: spec, environment: [:]) else {
            XCTFail("\(words) is not a help request")
            return ""
        }
        return text
    }

    /// From the `.Cm NAME` of the synopsis and command list, and every `Fl \-NAME`.
    init(man source: String, defaultSubcommand: String?) {
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
                options.formUnion(Self.longOptions(in: String(trimmed.prefix { $0 != "[" })))
            }
        }
    }

    /// From the `-a NAME` words offered before any subcommand, and every `-l NAME`.
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

    /// By running the bash completion function: the words offered first (JIDs aside), and the
    /// options offered after `--` before any subcommand and after each one.
    init(bash spec: ToolSpec, _ shell: BashCompletion) throws {
        subcommands = Set(try shell.complete([spec.name, ""]).filter { !$0.contains("@") })
        options = Set(try shell.complete([spec.name, "--"]))
        for command in spec.visibleSubcommands {
            options.formUnion(try shell.complete([spec.name, command.name, "--"]))
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
