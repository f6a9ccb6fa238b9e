import Arguments
import XCTest

/// `--help` text: content, layout and determinism.
final class HelpTests: XCTestCase {
    private let specs = [Samples.roster, Samples.login, Samples.avatar]

    func testToolHelpListsEveryVisibleSubcommandAndCommonOption() {
        for spec in specs {
            let help = HelpRenderer.tool(spec)
            for command in spec.visibleSubcommands where command.name != spec.defaultSubcommand {
                XCTAssertTrue(help.contains("\n  \(command.name) "), "\(spec.name): \(command.name)")
                XCTAssertTrue(help.contains(command.summary), "\(spec.name): \(command.summary)")
            }
            for option in spec.globalOptions where !option.hidden {
                XCTAssertTrue(help.contains(option.longName), "\(spec.name): \(option.longName)")
            }
            XCTAssertFalse(help.contains("dump"))
            XCTAssertFalse(help.contains("__complete"))
        }
    }

    func testCommandHelpListsItsOptionsWithValueNamesAndNotes() throws {
        let list = try XCTUnwrap(Samples.roster.command(named: "list"))
        let help = HelpRenderer.command(list, in: Samples.roster)
        for option in Samples.roster.options(for: list) where !option.hidden {
            XCTAssertTrue(help.contains(option.longName + (option.valueName.map { " " + $0 } ?? "")), option.long)
        }
        XCTAssertTrue(help.contains("-g, --group GROUP"))
        XCTAssertTrue(help.contains("[repeatable]"))
        XCTAssertTrue(help.contains("[values: jid, name, group]"))
        XCTAssertTrue(help.contains("[default: jid]"))
        XCTAssertTrue(help.contains("-a/--account JID"))
        XCTAssertTrue(help.contains("--timeout SECONDS"))
        XCTAssertFalse(help.contains("debug-dump"))
        XCTAssertTrue(help.hasPrefix("Usage: xmpp-roster list [OPTIONS]\n"))
    }

    func testEveryCommandHelpContainsEveryVisibleOption() {
        for spec in specs {
            for command in spec.subcommands {
                let help = HelpRenderer.command(command, in: spec)
                for option in spec.options(for: command) where !option.hidden {
                    XCTAssertTrue(help.contains(option.longName), "\(spec.name) \(command.name): \(option.longName)")
                }
                for positional in command.positionals {
                    XCTAssertTrue(
                        help.contains("\n  \(positional.name) "), "\(spec.name) \(command.name): \(positional.name)")
                }
            }
        }
    }

    func testDefaultSubcommandShapesTheToolUsage() {
        let help = HelpRenderer.tool(Samples.login)
        XCTAssertTrue(
            help.hasPrefix(
                """
                Usage: xmpp-login [OPTIONS] JID
                       xmpp-login [OPTIONS] COMMAND [ARGS...]

                """))
        XCTAssertTrue(help.contains("--password-file FILE"))
        XCTAssertTrue(help.contains("Common options:"))
        XCTAssertFalse(help.contains("\n  login "))
    }

    func testLinesFitEightyColumnsExceptExampleCommands() {
        for spec in specs {
            let pages = [HelpRenderer.tool(spec)] + spec.subcommands.map { HelpRenderer.command($0, in: spec) }
            for page in pages {
                for line in page.split(separator: "\n") where !line.hasPrefix("    $ ") {
                    XCTAssertLessThanOrEqual(line.count, 80, String(line))
                    XCTAssertFalse(line.hasSuffix(" "), "trailing space: \(line)")
                }
            }
        }
    }

    func testHelpIsDeterministic() {
        XCTAssertEqual(HelpRenderer.tool(Samples.roster), HelpRenderer.tool(Samples.roster))
    }

    /// Usage, the summary, a row per argument and option with the first sentence of its help,
    /// the common options by name, and where the manual is.
    func testSubcommandHelpLayout() throws {
        let remove = try XCTUnwrap(Samples.roster.command(named: "remove"))
        let expected = """
            Usage: xmpp-roster remove [OPTIONS] JID

            Remove a contact and cancel both subscriptions.

            Arguments:
              JID  The contact; a bare name means that name on your domain.

            Common options: -a/--account JID, --json, --server HOST[:PORT], --direct-tls,
            --ca-file PATH, --timeout SECONDS, --trace, -q/--quiet, -h/--help, --version
            (man xmpp-roster, OPTIONS).

            The manual, with examples: man xmpp-roster (remove under COMMANDS).

            """
        XCTAssertEqual(HelpRenderer.command(remove, in: Samples.roster), expected)
    }

    /// A tool `t` with one subcommand `run` taking `options`.
    private static func tool(running options: [OptionSpec]) -> ToolSpec {
        ToolSpec(name: "t", summary: "s", version: "1", subcommands: [CommandSpec("run", summary: "r", options: options)])
    }

    /// What follows the first sentence (or a colon) is the man page's.
    func testOptionRowsShowTheFirstSentence() {
        let spec = Self.tool(running: [
            OptionSpec("jobs", value: "N", help: "Streams at once (default 4): each pipelines requests. More."),
            OptionSpec("prefix", value: "TEXT", help: "Honorific prefix, e.g. Dr. Shown first."),
            OptionSpec("note", value: "TEXT", help: "Free text (one line. or more)"),
        ])
        let help = HelpRenderer.command(spec.subcommands[0], in: spec)
        XCTAssertTrue(help.contains("--jobs N       Streams at once (default 4).\n"), help)
        XCTAssertTrue(help.contains("Honorific prefix, e.g. Dr.\n"), help)
        XCTAssertTrue(help.contains("Free text (one line. or more).\n"), help)
        XCTAssertFalse(help.contains("pipelines"))
        let man = ManPageRenderer.render(spec, date: "2024-05-01")
        XCTAssertTrue(man.contains("each pipelines requests"), man)
    }

    func testLongLabelsPutTheirTextOnTheNextLine() {
        let spec = Self.tool(running: [
            OptionSpec("a-very-long-option-name", value: "SOME-VALUE", help: "Explained below the label.")
        ])
        let help = HelpRenderer.command(spec.subcommands[0], in: spec)
        XCTAssertTrue(
            help.contains(
                """
                      --a-very-long-option-name SOME-VALUE
                                                Explained below the label.
                """), help)
    }
}
