import Arguments
import XCTest

/// Every usage error: its reason, and the exact one-line message and hint the tool prints.
final class ParserErrorTests: XCTestCase {
    private func assertError(
        _ line: String, _ reason: ArgumentError.Reason, _ message: String, hint: String? = nil,
        file: StaticString = #filePath, line number: UInt = #line
    ) {
        assertError(line, Samples.roster, reason, message, hint: hint, file: file, line: number)
    }

    private func assertError(
        _ line: String, _ spec: ToolSpec, _ reason: ArgumentError.Reason, _ message: String, hint: String? = nil,
        file: StaticString = #filePath, line number: UInt = #line
    ) {
        guard let error = Parse.error(line, spec, file: file, line: number) else { return }
        XCTAssertEqual(error.reason, reason, file: file, line: number)
        XCTAssertEqual(error.description, message, file: file, line: number)
        if let hint { XCTAssertEqual(error.hint, hint, file: file, line: number) }
    }

    /// `line` names the unknown `option` of xmpp-roster: the reason, and the message that names
    /// it and, where there is one, the option meant.
    private func assertUnknownOption(
        _ line: String, _ option: String, suggesting suggestion: String?, hint: String? = nil,
        file: StaticString = #filePath, line number: UInt = #line
    ) {
        let meant = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
        assertError(line, .unknownOption(option, suggestion: suggestion), "xmpp-roster: unknown option '\(option)'\(meant)",
                    hint: hint, file: file, line: number)
    }

    func testUnknownLongOptionSuggestsTheClosest() {
        assertUnknownOption("list --onlin", "--onlin", suggesting: "--online", hint: "Try 'xmpp-roster list --help'.")
        assertUnknownOption("list --jsno", "--jsno", suggesting: "--json")
        assertUnknownOption("list --onl", "--onl", suggesting: "--online")
    }

    func testUnknownOptionNamesTheInputWithoutItsValue() {
        assertUnknownOption("list --onlin=yes", "--onlin", suggesting: "--online")
    }

    func testUnknownOptionFarFromAnyHasNoSuggestion() {
        assertUnknownOption("list --zzzzzz", "--zzzzzz", suggesting: nil)
    }

    func testHiddenOptionsAreNeverSuggested() {
        assertUnknownOption("list --debug-dum", "--debug-dum", suggesting: nil)
    }

    func testOptionOfAnotherSubcommandIsUnknownHere() {
        assertUnknownOption("remove bob --online", "--online", suggesting: nil, hint: "Try 'xmpp-roster remove --help'.")
    }

    func testUnknownShortOption() {
        assertUnknownOption("list -z", "-z", suggesting: nil)
        assertUnknownOption("list -qz", "-z", suggesting: nil)
    }

    func testLongOptionWrittenWithOneDash() {
        assertUnknownOption("list -online", "-online", suggesting: "--online")
    }

    func testUnknownSubcommandSuggestsTheClosest() {
        assertError(
            "lsit", .unknownSubcommand("lsit", suggestion: "list"),
            "xmpp-roster: unknown subcommand 'lsit' (did you mean 'list'?)",
            hint: "Try 'xmpp-roster --help'.")
        assertError(
            "frobnicate", .unknownSubcommand("frobnicate", suggestion: nil),
            "xmpp-roster: unknown subcommand 'frobnicate'")
        assertError(
            "lsit --help", .unknownSubcommand("lsit", suggestion: "list"),
            "xmpp-roster: unknown subcommand 'lsit' (did you mean 'list'?)")
    }

    func testNearMissOfASubcommandIsNotTakenForTheDefaultSubcommandsArgument() {
        assertError(
            "statsu", Samples.login, .unknownSubcommand("statsu", suggestion: "status"),
            "xmpp-login: unknown subcommand 'statsu' (did you mean 'status'?)")
    }

    func testMissingSubcommandListsTheVisibleOnes() {
        assertError(
            "--json",
            .missingSubcommand(available: [
                "list", "add", "remove", "pending", "approve", "rename",
                "group", "import",
            ]),
            "xmpp-roster: missing subcommand (one of: list, add, remove, pending, approve, rename, group, import)")
    }

    func testMissingValue() {
        assertError("list --sort", .missingValue(option: "--sort"), "xmpp-roster: option '--sort' needs a value")
        assertError("list -g", .missingValue(option: "-g"), "xmpp-roster: option '-g' needs a value")
    }

    func testFlagGivenAValue() {
        assertError(
            "list --json=yes", .unexpectedValue(option: "--json", value: "yes"),
            "xmpp-roster: option '--json' takes no value (got 'yes')")
    }

    func testMissingAndExtraPositionals() {
        assertError(
            "remove", .missingPositional("JID"), "xmpp-roster: missing argument JID",
            hint: "Try 'xmpp-roster remove --help'.")
        assertError("rename bob", .missingPositional("NAME"), "xmpp-roster: missing argument NAME")
        assertError("remove bob carol", .tooManyPositionals("carol"), "xmpp-roster: unexpected argument 'carol'")
        assertError("list extra", .tooManyPositionals("extra"), "xmpp-roster: unexpected argument 'extra'")
        assertError(
            "", Samples.login, .missingPositional("JID"), "xmpp-login: missing argument JID",
            hint: "Try 'xmpp-login --help'.")
    }

    func testValueOutsideTheAllowedSetListsThem() {
        assertError(
            "list --sort size", .invalidValue(option: "--sort", value: "size", expected: "one of jid, name, group"),
            "xmpp-roster: invalid value 'size' for --sort (expected one of jid, name, group)")
        assertError(
            "set --fit fill me.png", Samples.avatar,
            .invalidValue(option: "--fit", value: "fill", expected: "crop or pad"),
            "xmpp-avatar: invalid value 'fill' for --fit (expected crop or pad)")
    }

    func testRepeatedOptionThatIsNotRepeatable() {
        assertError(
            "list --sort jid --sort=name", .notRepeatable("--sort"),
            "xmpp-roster: option '--sort' given more than once")
        assertError(
            "-a a@example.org list -a b@example.org", .notRepeatable("--account"),
            "xmpp-roster: option '--account' given more than once")
    }

    func testIntegerAndNumberHelpers() throws {
        let parsed = try Parse.run("list --timeout 2.5")
        XCTAssertEqual(try parsed.double("timeout"), 2.5)
        XCTAssertThrowsError(try parsed.int("timeout")) { error in
            XCTAssertEqual("\(error)", "xmpp-roster: invalid value '2.5' for --timeout (expected an integer)")
        }
        XCTAssertEqual(try Parse.run("list --timeout 30").int("timeout", in: 1...60), 30)
        XCTAssertThrowsError(try Parse.run("list --timeout 0").int("timeout", in: 1...60)) { error in
            XCTAssertEqual(
                "\(error)", "xmpp-roster: invalid value '0' for --timeout (expected an integer from 1 to 60)")
        }
        XCTAssertThrowsError(try Parse.run("list --timeout inf").double("timeout")) { error in
            XCTAssertEqual((error as? ArgumentError)?.hint, "Try 'xmpp-roster list --help'.")
        }
        XCTAssertNil(try Parse.run("list").int("server"))
    }

    func testCustomCheckErrorOnTheDefaultCommandPointsAtToolHelp() throws {
        let parsed = try Parse.run("alice@example.org", Samples.login)
        XCTAssertEqual(parsed.invalid("account", "x", "a JID").hint, "Try 'xmpp-login --help'.")
    }
}
