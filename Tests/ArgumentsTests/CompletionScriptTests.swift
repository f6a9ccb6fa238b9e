import Arguments
import ShellTestSupport
import XCTest

/// The generated scripts: accepted by each shell's syntax check, and naming every subcommand
/// and option.
final class CompletionScriptTests: XCTestCase {
    private let specs = [Samples.roster, Samples.login, Samples.avatar, Escaping.spec]

    func testBashAcceptsTheScripts() throws {
        try checkSyntax("bash", ["-n"], CompletionRenderer.bash)
    }

    func testZshAcceptsTheScripts() throws {
        try checkSyntax("zsh", ["-n"], CompletionRenderer.zsh)
    }

    func testFishAcceptsTheScripts() throws {
        try checkSyntax("fish", ["--no-execute"], CompletionRenderer.fish)
    }

    func testScriptsNameEverySubcommandAndLongOption() {
        for spec in specs {
            for (shell, script) in [
                ("bash", CompletionRenderer.bash(spec)), ("zsh", CompletionRenderer.zsh(spec)),
                ("fish", CompletionRenderer.fish(spec)),
            ] {
                for command in spec.visibleSubcommands {
                    XCTAssertTrue(script.contains(command.name), "\(shell) \(spec.name): \(command.name)")
                }
                for option in spec.globalOptions + spec.subcommands.flatMap(\.options) where !option.hidden {
                    let spelled = shell == "fish" ? "-l " + option.long : option.longName
                    XCTAssertTrue(script.contains(spelled), "\(shell) \(spec.name): \(option.longName)")
                }
                XCTAssertFalse(script.contains("debug-dump"), "\(shell) \(spec.name)")
            }
        }
    }

    func testScriptsAskTheToolForDynamicCandidates() {
        let bash = CompletionRenderer.bash(Samples.roster)
        XCTAssertTrue(bash.contains(#"local -a request=(__complete "$1")"#))
        XCTAssertTrue(bash.contains(#"[[ -n $account ]] && request+=(--account "$account")"#))
        XCTAssertTrue(bash.contains("complete -F _xmpp_roster xmpp-roster\n"))
        XCTAssertTrue(CompletionRenderer.zsh(Samples.roster).hasPrefix("#compdef xmpp-roster\n"))
        XCTAssertTrue(CompletionRenderer.fish(Samples.roster).contains("'(__xmpp_roster_dynamic contacts)'"))
    }

    private func checkSyntax(_ shell: String, _ flags: [String], _ render: (ToolSpec) -> String) throws {
        let directory = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for spec in specs {
            let path = try Shell.write(render(spec), to: spec.name + "." + shell, in: directory)
            let result = try Shell.run(shell, flags + [path])
            XCTAssertEqual(result.status, 0, "\(shell) \(spec.name): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", "\(shell) \(spec.name)")
        }
    }
}
