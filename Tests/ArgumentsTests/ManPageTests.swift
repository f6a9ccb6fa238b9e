import Arguments
import ShellTestSupport
import XCTest

/// Man pages: content, escaping, `mandoc -T lint` silence and rendering by `man -l`.
final class ManPageTests: XCTestCase {
    private let specs = [Samples.roster, Samples.login, Samples.avatar]
    private let date = "2024-05-01"

    func testPageHasTheConventionalSectionsInOrder() {
        let page = ManPageRenderer.render(Samples.roster, date: date)
        let titles = page.split(separator: "\n").filter { $0.hasPrefix(".Sh ") }.map { String($0.dropFirst(4)) }
        XCTAssertEqual(
            titles,
            [
                "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "ENVIRONMENT", "FILES",
                "EXIT STATUS", "EXAMPLES", "SEE ALSO",
            ])
        XCTAssertTrue(page.contains(".Dd May 1, 2024\n.Dt XMPP-ROSTER 1\n.Os\n"))
        XCTAssertTrue(page.contains(".Nm xmpp-roster\n.Nd list and change the roster of an XMPP account\n"))
    }

    func testPageNamesEverySubcommandAndOption() {
        for spec in specs {
            let page = ManPageRenderer.render(spec, date: date)
            for command in spec.visibleSubcommands where command.name != spec.defaultSubcommand {
                XCTAssertTrue(page.contains(".It Cm \(command.name)"), "\(spec.name): \(command.name)")
                XCTAssertTrue(page.contains(".Cm \(command.name)\n"), "\(spec.name) synopsis: \(command.name)")
            }
            for option in (spec.globalOptions + spec.subcommands.flatMap(\.options)) where !option.hidden {
                XCTAssertTrue(
                    page.contains("Fl \\-" + option.long.replacing("-", with: "\\-")), "\(spec.name): \(option.long)")
            }
            XCTAssertFalse(page.contains("debug"), spec.name)
            XCTAssertFalse(page.contains("dump"), spec.name)
        }
    }

    func testEnvironmentAddsOptionFallbacksOnce() {
        let page = ManPageRenderer.render(Samples.login, date: date)
        XCTAssertEqual(page.components(separatedBy: ".It Ev XMPP_ACCOUNT").count, 2)
        XCTAssertTrue(page.contains(".It Ev XMPP_PASSWORD"))
        let roster = ManPageRenderer.render(Samples.roster, date: date)
        XCTAssertTrue(roster.contains(".It Ev XMPP_ACCOUNT\nAccount used when \\-\\-account is not given.\n"))
    }

    func testExamplesAreLiteralPipelinesWithEscapedHyphensAndBackslashes() {
        let page = ManPageRenderer.render(Samples.roster, date: date)
        XCTAssertTrue(
            page.contains(".Bd -literal -offset indent\n$ printf 'alice\\enbob\\en' | xmpp\\-roster import \\-\n.Ed"))
        XCTAssertTrue(page.contains("$ xmpp\\-roster list \\-\\-online \\-\\-json | jq \\-r '.[].jid'"))
    }

    func testSeeAlsoIsSortedBySectionThenName() {
        let page = ManPageRenderer.render(Samples.roster, date: date)
        XCTAssertTrue(
            page.hasSuffix(".Sh SEE ALSO\n.Xr jq 1 ,\n.Xr xmpp-login 1 ,\n.Xr xmpp-vcard 1 ,\n.Xr xmpp-tools 7\n"))
    }

    func testMandocLintIsSilent() throws {
        let directory = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for spec in specs + [Escaping.spec] {
            let path = try Shell.write(ManPageRenderer.render(spec, date: date), to: spec.name + ".1", in: directory)
            let lint = try Shell.run("mandoc", ["-T", "lint", "-W", "warning", path])
            XCTAssertEqual(lint.stdout + lint.stderr, "", spec.name)
            XCTAssertEqual(lint.status, 0, spec.name)
        }
    }

    func testAwkwardTextSurvivesEscaping() throws {
        let directory = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Shell.write(ManPageRenderer.render(Escaping.spec, date: date), to: "t.1", in: directory)
        let rendered = Shell.plain(try Shell.run("mandoc", ["-T", "utf8", "-O", "width=200", path]).stdout)
        for fragment in [
            "No Ar Ta. words", ".leading dot", "'leading quote", #"back\slash"#, "naïve → café",
            "\"quoted\" words", "use --all to see", "No Ta", "run Ar", "%A field", ".dot first",
            #"$ printf '%s\n' "a b" | escape-test run -"#, ".Looks like a macro.", "~/.escape test/file",
            "--mode A|B",
        ] {
            XCTAssertTrue(rendered.contains(fragment), "\(fragment) in\n\(rendered)")
        }
    }

    func testManRendersThePage() throws {
        let directory = try Shell.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Shell.write(
            ManPageRenderer.render(Samples.roster, date: date), to: "xmpp-roster.1", in: directory)
        let man = try Shell.run(
            "man", ["-l", path], environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80"])
        XCTAssertEqual(man.status, 0, man.stderr)
        XCTAssertEqual(man.stderr, "")
        let text = Shell.plain(man.stdout)
        for fragment in [
            "XMPP-ROSTER(1)", "NAME", "SYNOPSIS", "COMMANDS", "EXIT STATUS", "May 1, 2024",
            "xmpp-roster remove JID",
        ] {
            XCTAssertTrue(text.contains(fragment), "\(fragment) in\n\(text)")
        }
    }
}

/// A spec whose text is full of things roff would misread.
enum Escaping {
    static let spec = ToolSpec(
        name: "escape-test",
        summary: "No Ar Ta. words that look like macros",
        description: [
            ".leading dot", "'leading quote", #"back\slash"#, "naïve → café", "\"quoted\" words",
            "use --all to see all",
        ],
        version: "1",
        commonOptions: [OptionSpec("mode", value: "A|B", help: "No Ta", completion: .values(["a", "b"]))],
        subcommands: [
            CommandSpec(
                "run", summary: ".dot first", discussion: ["Ta Ta"],
                positionals: [PositionalSpec("Ar", help: "%A field")])
        ],
        exitCodes: [ExitStatus(0, "Ok.")],
        environment: [Definition("ESCAPE_TEST", "\\e is not an escape here.")],
        files: [Definition("~/.escape test/file", "A path with a space.")],
        examples: [Example(#"printf '%s\n' "a b" | escape-test run -"#, ".Looks like a macro.")],
        seeAlso: ["mandoc(1)", "xmpp-tools(7)"])
}
