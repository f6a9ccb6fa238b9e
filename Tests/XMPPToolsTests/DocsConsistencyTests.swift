import Arguments
import Foundation
import ShellTestSupport
import XCTest
import XMPPTools

/// For every tool in AllSpecs, `--help`, the checked-in man page and the checked-in bash, zsh
/// and fish scripts list exactly the subcommands and long options the spec declares: each is
/// read back from the text a user would see (bash by running the completion function).
final class DocsConsistencyTests: XCTestCase {
    func testHelpManAndCompletionsListTheSameCommandsAndOptions() throws {
        let bash = try BashCompletion()
        for spec in AllSpecs.tools {
            let expected = CommandSurface(spec)
            XCTAssertEqual(try CommandSurface(help: spec), expected, "--help of \(spec.name)")
            let man = try XCTUnwrap(DocsSupport.checkedIn(Documentation.Location.manPage(spec.name)))
            XCTAssertEqual(CommandSurface(man: man, defaultSubcommand: spec.defaultSubcommand), expected, "man page of \(spec.name)")
            let zsh = try XCTUnwrap(DocsSupport.checkedIn(Documentation.Location.zsh(spec.name)))
            XCTAssertEqual(CommandSurface(zsh: zsh), expected, "zsh script of \(spec.name)")
            let fish = try XCTUnwrap(DocsSupport.checkedIn(Documentation.Location.fish(spec.name)))
            XCTAssertEqual(CommandSurface(fish: fish), expected, "fish script of \(spec.name)")
            XCTAssertEqual(try CommandSurface(bash: spec) { try bash.complete($0) }, expected, "bash completion of \(spec.name)")
        }
    }
}

extension CommandSurface {
    /// From `TOOL --help` ("Commands:" rows) and `TOOL COMMAND --help` (option rows), as the
    /// parser answers them.
    fileprivate init(help spec: ToolSpec) throws {
        self.init()
        let tool = try Self.help(["--help"], spec)
        var pages = [tool]
        for name in Self.commands(inHelp: tool) {
            if name != spec.defaultSubcommand { subcommands.insert(name) }
            pages.append(try Self.help([name, "--help"], spec))
        }
        for page in pages { options.formUnion(Self.options(inHelp: page)) }
    }

    fileprivate static func help(_ words: [String], _ spec: ToolSpec) throws -> String {
        guard case .help(let text) = try ArgumentParser.parse(words[...], spec: spec, environment: [:]) else {
            XCTFail("\(words) is not a help request")
            return ""
        }
        return text
    }
}
