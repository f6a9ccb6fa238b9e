import Arguments
import XCTest

/// Each parsing rule of `ArgumentParser`, on the sample xmpp-roster and xmpp-login specs.
final class ParserTests: XCTestCase {
    func testLongOptionWithEqualsOrSeparateValue() throws {
        XCTAssertEqual(try Parse.run("list --sort=name").string("sort"), "name")
        XCTAssertEqual(try Parse.run("list --sort name").string("sort"), "name")
        XCTAssertEqual(try Parse.run("add --name=a=b bob").string("name"), "a=b")
        XCTAssertEqual(try Parse.run("add --name= bob").string("name"), "")
    }

    func testShortOptionWithSeparateOrAttachedValue() throws {
        XCTAssertEqual(try Parse.run("list -g friends").strings("group"), ["friends"])
        XCTAssertEqual(try Parse.run("list -gfriends").strings("group"), ["friends"])
    }

    func testBundledShortFlagsEndingInAnOptionWithValue() throws {
        let parsed = try Parse.run("list -qgwork")
        XCTAssertTrue(parsed.flag("quiet"))
        XCTAssertEqual(parsed.strings("group"), ["work"])
        let separate = try Parse.run("-qa me@example.org list")
        XCTAssertTrue(separate.flag("quiet"))
        XCTAssertEqual(separate.string("account"), "me@example.org")
    }

    func testDoubleDashEndsOptions() throws {
        let parsed = try Parse.run("remove -- --odd")
        XCTAssertEqual(parsed.positionals, ["--odd"])
        XCTAssertEqual(parsed.argument("JID"), "--odd")
    }

    func testSingleDashIsAPositional() throws {
        XCTAssertEqual(try Parse.run("import -").argument("FILE"), "-")
    }

    func testOptionsBeforeAfterAndBetweenSubcommandAndPositionals() throws {
        let parsed = try Parse.run("--json rename bob --timeout 3 Bobby -q")
        XCTAssertEqual(parsed.command, "rename")
        XCTAssertEqual(parsed.positionals, ["bob", "Bobby"])
        XCTAssertEqual(parsed.arguments, ["JID": ["bob"], "NAME": ["Bobby"]])
        XCTAssertTrue(parsed.flag("json"))
        XCTAssertTrue(parsed.flag("quiet"))
        XCTAssertEqual(parsed.string("timeout"), "3")
    }

    func testValueOfAnOptionBeforeTheSubcommandIsNotTakenForTheSubcommand() throws {
        let parsed = try Parse.run("--account list list")
        XCTAssertEqual(parsed.command, "list")
        XCTAssertEqual(parsed.string("account"), "list")
        XCTAssertTrue(parsed.positionals.isEmpty)
    }

    func testSubcommandOptionBeforeTheSubcommandWord() throws {
        let parsed = try Parse.run("--online list")
        XCTAssertTrue(parsed.flag("online"))
    }

    func testRepeatableOptionKeepsEveryValueInOrder() throws {
        let parsed = try Parse.run("list -g a --group b --group=c")
        XCTAssertEqual(parsed.strings("group"), ["a", "b", "c"])
        XCTAssertEqual(parsed.string("group"), "c")
    }

    func testRepeatedFlagIsHarmless() throws {
        XCTAssertTrue(try Parse.run("list --json --json").flag("json"))
    }

    func testDefaultsFillAbsentOptions() throws {
        let parsed = try Parse.run("list")
        XCTAssertEqual(parsed.string("timeout"), "15")
        XCTAssertEqual(parsed.source("timeout"), .defaultValue)
        XCTAssertEqual(parsed.string("sort"), "jid")
        XCTAssertNil(parsed.string("server"))
        XCTAssertNil(parsed.source("server"))
        XCTAssertEqual(try Parse.run("list --timeout 20").source("timeout"), .commandLine)
    }

    func testEnvironmentFallbackAndPrecedence() throws {
        let environment = ["XMPP_ACCOUNT": "env@example.org"]
        let fromEnvironment = try Parse.run("list", environment: environment)
        XCTAssertEqual(fromEnvironment.string("account"), "env@example.org")
        XCTAssertEqual(fromEnvironment.source("account"), .environment("XMPP_ACCOUNT"))
        let fromLine = try Parse.run("list -a me@example.org", environment: environment)
        XCTAssertEqual(fromLine.string("account"), "me@example.org")
        XCTAssertEqual(fromLine.source("account"), .commandLine)
        XCTAssertNil(try Parse.run("list", environment: ["XMPP_ACCOUNT": ""]).string("account"))
    }

    func testEnvironmentFallbackForFlags() throws {
        let spec = ToolSpec(
            name: "t", summary: "s", version: "1",
            commonOptions: [.flag("color", help: "h", env: "T_COLOR")],
            subcommands: [CommandSpec("run", summary: "r")])
        XCTAssertTrue(try Parse.run("run", spec, environment: ["T_COLOR": "1"]).flag("color"))
        XCTAssertTrue(try Parse.run("run", spec, environment: ["T_COLOR": "yes"]).flag("color"))
        XCTAssertFalse(try Parse.run("run", spec, environment: ["T_COLOR": "0"]).flag("color"))
        XCTAssertFalse(try Parse.run("run", spec, environment: ["T_COLOR": "false"]).flag("color"))
        XCTAssertFalse(try Parse.run("run", spec).flag("color"))
    }

    func testPositionalsOptionalAndVariadic() throws {
        XCTAssertNil(try Parse.run("approve --all").argument("JID"))
        XCTAssertEqual(try Parse.run("approve bob").argument("JID"), "bob")
        let group = try Parse.run("group bob a b c")
        XCTAssertEqual(group.argument("JID"), "bob")
        XCTAssertEqual(group.argumentList("GROUP"), ["a", "b", "c"])
        XCTAssertEqual(try Parse.run("group bob").argumentList("GROUP"), [])
    }

    func testHelpAnywhereShowsTheHelpOfTheCommandInScope() throws {
        let roster = Samples.roster
        let list = try XCTUnwrap(roster.command(named: "list"))
        XCTAssertEqual(try parse("--help"), .help(HelpRenderer.tool(roster)))
        XCTAssertEqual(try parse("-h"), .help(HelpRenderer.tool(roster)))
        XCTAssertEqual(try parse("list --help"), .help(HelpRenderer.command(list, in: roster)))
        XCTAssertEqual(try parse("-h list"), .help(HelpRenderer.command(list, in: roster)))
        XCTAssertEqual(try parse("list -qh"), .help(HelpRenderer.command(list, in: roster)))
        XCTAssertEqual(try parse("list --bogus --help"), .help(HelpRenderer.command(list, in: roster)))
        XCTAssertEqual(
            try parse("remove --help"),
            .help(HelpRenderer.command(try XCTUnwrap(roster.command(named: "remove")), in: roster)))
        XCTAssertEqual(try parse("alice@example.org --help", Samples.login), .help(HelpRenderer.tool(Samples.login)))
    }

    func testHelpAsAnOptionValueOrAfterDoubleDashIsNotHelp() throws {
        XCTAssertEqual(try Parse.run("add --name --help bob").string("name"), "--help")
        XCTAssertEqual(try Parse.run("remove -- --help").argument("JID"), "--help")
    }

    func testVersion() throws {
        XCTAssertEqual(try parse("--version"), .version("xmpp-roster 0.1.0"))
        XCTAssertEqual(try parse("list --version"), .version("xmpp-roster 0.1.0"))
    }

    func testCompletionRequest() throws {
        XCTAssertEqual(try parse("__complete contacts"), .complete(CompletionRequest(kind: "contacts")))
        XCTAssertEqual(
            try parse("__complete contacts --account me@example.org"),
            .complete(CompletionRequest(kind: "contacts", account: "me@example.org")))
        XCTAssertEqual(
            try parse("__complete --account=me@example.org groups"),
            .complete(CompletionRequest(kind: "groups", account: "me@example.org")))
        XCTAssertEqual(try parse("__complete accounts", Samples.login), .complete(CompletionRequest(kind: "accounts")))
        XCTAssertEqual(CompletionRequest.subcommand, "__complete")
    }

    func testDefaultSubcommandTakesAPositionalWithNoSubcommandWord() throws {
        let login = try Parse.run("alice@example.org --password-stdin", Samples.login)
        XCTAssertEqual(login.command, "login")
        XCTAssertTrue(login.isDefault)
        XCTAssertEqual(login.argument("JID"), "alice@example.org")
        XCTAssertTrue(login.flag("password-stdin"))
        let optionFirst = try Parse.run("--password-stdin -a x@example.org alice@example.org", Samples.login)
        XCTAssertEqual(optionFirst.argument("JID"), "alice@example.org")
        let status = try Parse.run("status alice@example.org", Samples.login)
        XCTAssertEqual(status.command, "status")
        XCTAssertFalse(status.isDefault)
        XCTAssertEqual(try Parse.run("login bob@example.org", Samples.login).command, "login")
    }

    func testHiddenSubcommandAndOptionStillParse() throws {
        XCTAssertEqual(try Parse.run("dump").command, "dump")
        XCTAssertTrue(try Parse.run("list --debug-dump").flag("debug-dump"))
    }

    func testCommandLineEntryPointDropsTheProgramName() throws {
        let outcome = try ArgumentParser.parse(commandLine: ["/usr/bin/xmpp-roster", "list"], spec: Samples.roster)
        guard case .run(let parsed) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(parsed.command, "list")
    }

    private func parse(_ line: String, _ spec: ToolSpec = Samples.roster) throws -> ParseOutcome {
        try ArgumentParser.parse(Parse.words(line), spec: spec)
    }
}
