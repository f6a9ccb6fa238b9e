import Arguments
import ShellTestSupport
import XCTest

/// Help, man page and the three completion scripts list exactly the same subcommands and long
/// options as the spec: each is read back from its output and compared.
final class ConsistencyTests: XCTestCase {
    private let specs = [Samples.roster, Samples.login, Samples.avatar]

    func testEveryOutputListsTheSameSubcommandsAndOptions() throws {
        let shell = try CompletionHarness()
        for spec in specs {
            let expected = CommandSurface(spec)
            XCTAssertEqual(CommandSurface(help: spec), expected, "help of \(spec.name)")
            XCTAssertEqual(
                CommandSurface(man: ManPageRenderer.render(spec, date: "2024-05-01"), defaultSubcommand: spec.defaultSubcommand), expected, "man page of \(spec.name)")
            XCTAssertEqual(CommandSurface(zsh: CompletionRenderer.zsh(spec)), expected, "zsh script of \(spec.name)")
            XCTAssertEqual(CommandSurface(fish: CompletionRenderer.fish(spec)), expected, "fish script of \(spec.name)")
            XCTAssertEqual(try CommandSurface(bash: spec) { try shell.bash(spec, $0) }, expected, "bash completion of \(spec.name)")
        }
    }
}

extension CommandSurface {
    /// From the "Commands:" section of the tool help, and the option rows of every help page.
    fileprivate init(help spec: ToolSpec) {
        self.init()
        let tool = HelpRenderer.tool(spec)
        subcommands = Set(Self.commands(inHelp: tool))
        for page in [tool] + spec.subcommands.map({ HelpRenderer.command($0, in: spec) }) {
            options.formUnion(Self.options(inHelp: page))
        }
    }
}
