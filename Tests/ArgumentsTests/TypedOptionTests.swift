import Arguments
import XCTest

/// Typed option declarations read back through themselves, and option rules declared in the
/// spec that the parser enforces and help and man pages state.
final class TypedOptionTests: XCTestCase {
    private enum Format: String, CaseIterable, Sendable { case text, json, vcf }

    private static let cached = Flag("cached", help: "Answer from the cache.")
    private static let refresh = Flag("refresh", help: "Fetch again.")
    private static let format = Option<Format>.choice("format", value: "FORMAT", help: "How to print.", default: .text)
    private static let jobs = Option<Int>.integer("jobs", value: "N", help: "At once.", in: 1...64, default: 4)
    private static let group = Option<String>("group", value: "NAME", help: "A group.", repeatable: true)
    private static let report = Option<String>("report", value: "FILE", help: "Report here.", env: "XT_REPORT")
    private static let generate = Flag("generate-passwords", help: "Make passwords.")

    private static let spec = ToolSpec(
        name: "xmpp-sample", summary: "a sample", version: "1", commonOptions: [OptionSpec.flag("json", help: "JSON.")],
        subcommands: [
            CommandSpec("get", summary: "Get.", options: [cached, refresh, format, jobs, group],
                        rules: [.exclusive("cached", "refresh")]),
            CommandSpec("batch", summary: "Batch.", options: [generate, report],
                        rules: [.requires("generate-passwords", "report", because: "the report is the only copy")]),
        ])

    private func run(_ line: String, environment: [String: String] = [:]) throws -> ParsedCommand {
        try Parse.run(line, Self.spec, environment: environment)
    }

    func testTypedKeysReadWhatTheCommandLineGave() throws {
        let command = try run("get --cached --format vcf --jobs 8 --group A --group B")
        XCTAssertTrue(command[Self.cached])
        XCTAssertFalse(command[Self.refresh])
        XCTAssertEqual(try command.value(Self.format), .vcf)
        XCTAssertEqual(try command.value(Self.jobs), 8)
        XCTAssertEqual(try command.values(Self.group), ["A", "B"])
        XCTAssertEqual(command.source(of: Self.format), .commandLine)
    }

    func testDefaultsAreTyped() throws {
        let command = try run("get")
        XCTAssertEqual(try command.value(Self.format), .text)
        XCTAssertEqual(try command.value(Self.jobs), 4)
        XCTAssertEqual(command.source(of: Self.jobs), .defaultValue)
        XCTAssertEqual(try command.values(Self.group), [])
    }

    func testAChoiceOutsideTheEnumIsAUsageErrorListingTheCases() {
        let error = Parse.error("get --format xml", Self.spec)
        XCTAssertEqual(error?.reason, .invalidValue(option: "--format", value: "xml", expected: "one of text, json, vcf"))
        XCTAssertEqual(Self.format.spec.completion.allowedValues, ["text", "json", "vcf"])
    }

    func testAnIntegerOutsideItsRangeNamesTheRange() throws {
        let command = try run("get --jobs 99")
        XCTAssertThrowsError(try command.value(Self.jobs)) { error in
            XCTAssertEqual((error as? ArgumentError)?.reason,
                           .invalidValue(option: "--jobs", value: "99", expected: "an integer from 1 to 64"))
        }
    }

    func testExclusiveOptionsGivenTogetherAreAUsageError() {
        let error = Parse.error("get --refresh --cached", Self.spec)
        XCTAssertEqual(error?.reason, .conflictingOptions("--cached", "--refresh", reason: nil))
        XCTAssertEqual(error?.description, "xmpp-sample: --cached and --refresh cannot be used together")
        XCTAssertEqual(error?.hint, "Try 'xmpp-sample get --help'.")
    }

    func testANeededOptionMissingIsAUsageErrorWithTheReason() throws {
        let error = Parse.error("batch --generate-passwords", Self.spec)
        XCTAssertEqual(error?.description, "xmpp-sample: --generate-passwords needs --report: the report is the only copy")
        XCTAssertNoThrow(try run("batch --generate-passwords --report r.csv"))
        // The environment fallback satisfies the need; the rule is about what is given, not how.
        XCTAssertNoThrow(try run("batch --generate-passwords", environment: ["XT_REPORT": "r.csv"]))
    }

    /// The man page states the rules; `--help` is a summary, and a broken rule's error names it.
    func testRulesAreStatedInTheManPage() {
        let man = ManPageRenderer.render(Self.spec, date: "2024-05-01")
        XCTAssertTrue(man.contains("\\-\\-cached and \\-\\-refresh exclude each other."), man)
        XCTAssertTrue(man.contains("\\-\\-generate-passwords needs \\-\\-report: the report is the only copy."), man)
    }

    func testARuleNamingAnUnknownOptionIsASpecProblem() {
        var spec = Self.spec
        spec.subcommands[0].rules.append(.exclusive("cached", "offline"))
        XCTAssertEqual(spec.problems(), ["get: a rule names --offline, which it does not accept"])
        XCTAssertEqual(Self.spec.problems(), [])
    }
}
