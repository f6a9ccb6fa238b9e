import Arguments
import XCTest
import XMPPTools

/// Every spec in AllSpecs is sound, and its examples are real command lines: each one parses
/// with the tool's own parser, every subcommand has one, and every tool shows a pipeline.
final class DocsSpecTests: XCTestCase {
    func testEverySpecIsSound() {
        XCTAssertFalse(AllSpecs.tools.isEmpty)
        for spec in AllSpecs.tools {
            XCTAssertEqual(spec.problems(), [], spec.name)
            XCTAssertEqual(spec.version, CommonSpec.version, spec.name)
            XCTAssertTrue(spec.seeAlso.contains("xmpp-tools(7)"), "\(spec.name) does not refer to xmpp-tools(7)")
            XCTAssertEqual(spec.exitCodes, CommonSpec.exitCodes, "\(spec.name) documents other exit statuses")
        }
        XCTAssertEqual(Set(AllSpecs.tools.map(\.name)).count, AllSpecs.tools.count, "a tool is listed twice")
    }

    func testEveryExampleParses() throws {
        for spec in AllSpecs.tools {
            for example in spec.examples + spec.subcommands.flatMap(\.examples) {
                let invocations = ShellWords.invocations(of: spec.name, in: example.command)
                XCTAssertFalse(invocations.isEmpty, "\(spec.name) example does not run it: \(example.command)")
                for words in invocations {
                    XCTAssertNoThrow(try command(words, spec), "\(spec.name) example: \(example.command)")
                }
            }
        }
    }

    func testEverySubcommandHasAnExample() throws {
        for spec in AllSpecs.tools {
            var shown: Set<String> = []
            for example in spec.examples + spec.subcommands.flatMap(\.examples) {
                for words in ShellWords.invocations(of: spec.name, in: example.command) {
                    if let parsed = try? command(words, spec) { shown.insert(parsed.command) }
                }
            }
            for command in spec.visibleSubcommands {
                XCTAssertTrue(shown.contains(command.name), "\(spec.name) \(command.name) has no example")
            }
        }
    }

    func testEveryToolShowsAPipeline() {
        for spec in AllSpecs.tools {
            let pipelines = (spec.examples + spec.subcommands.flatMap(\.examples)).filter {
                $0.command.contains(" | ")
            }
            XCTAssertFalse(pipelines.isEmpty, "\(spec.name) has no pipeline example")
        }
    }

    func testExamplesExplainThemselves() {
        for spec in AllSpecs.tools {
            for example in spec.examples + spec.subcommands.flatMap(\.examples) {
                XCTAssertTrue(example.explanation.hasSuffix("."), "\(spec.name): \(example.explanation)")
                XCTAssertTrue(example.explanation.first?.isUppercase == true, "\(spec.name): \(example.explanation)")
            }
        }
    }

    func testTheWordSplitterFindsEveryInvocation() {
        XCTAssertEqual(
            ShellWords.invocations(of: "t", in: #"printf '%s\n' "$PW" | t a --x 'y z' >out.json 2>&1 && t b"#),
            [["a", "--x", "y z"], ["b"]])
        XCTAssertEqual(ShellWords.invocations(of: "t", in: "u | xargs -r -n 1 t c; echo $(t d e)"), [["c"], ["d", "e"]])
        XCTAssertEqual(ShellWords.invocations(of: "t", in: "tt t2 --t"), [])
    }

    private func command(_ words: [String], _ spec: ToolSpec) throws -> ParsedCommand {
        let outcome = try ArgumentParser.parse(words[...], spec: spec, environment: [:])
        guard case .run(let parsed) = outcome else { throw NotACommand(outcome: outcome) }
        return parsed
    }

    private struct NotACommand: Error { var outcome: ParseOutcome }
}

/// Splits a shell command line into the argument lists of each run of one program: quotes,
/// pipes, `&&`, `||`, `;`, `$(…)` and redirections are understood well enough for examples.
enum ShellWords {
    private enum Token: Equatable {
        case word(String)
        case separator
    }

    static func invocations(of program: String, in line: String) -> [[String]] {
        var commands: [[String]] = [[]]
        for token in tokens(line) {
            switch token {
            case .word(let word): commands[commands.count - 1].append(word)
            case .separator: commands.append([])
            }
        }
        return commands.compactMap { words in
            words.firstIndex(of: program).map { Array(words[($0 + 1)...]) }
        }
    }

    private static func tokens(_ line: String) -> [Token] {
        var tokens: [Token] = []
        var word = ""
        var inWord = false
        var skipNextWord = false
        var characters = Array(line)[...]
        func finish() {
            if inWord {
                if skipNextWord { skipNextWord = false } else { tokens.append(.word(word)) }
            }
            word = ""
            inWord = false
        }
        while let character = characters.popFirst() {
            switch character {
            case "'":
                inWord = true
                while let next = characters.popFirst(), next != "'" { word.append(next) }
            case "\"":
                inWord = true
                while let next = characters.popFirst(), next != "\"" {
                    if next == "\\", let escaped = characters.popFirst() { word.append(escaped) } else { word.append(next) }
                }
            case "\\":
                inWord = true
                if let escaped = characters.popFirst() { word.append(escaped) }
            case " ", "\t":
                finish()
            case "|", "&", ";", "(", ")", "`":
                finish()
                tokens.append(.separator)
            case "$" where characters.first == "(":
                finish()
                characters.removeFirst()
                tokens.append(.separator)
            case ">", "<":
                if inWord && word.allSatisfy(\.isNumber) {
                    word = ""
                    inWord = false
                }
                finish()
                if characters.first == ">" { characters.removeFirst() }
                if characters.first == "&" {
                    characters.removeFirst()
                    while characters.first?.isNumber == true { characters.removeFirst() }
                } else {
                    skipNextWord = true
                }
            default:
                inWord = true
                word.append(character)
            }
        }
        finish()
        return tokens
    }
}
