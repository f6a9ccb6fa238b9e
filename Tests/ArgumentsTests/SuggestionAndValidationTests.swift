import XCTest

@testable import Arguments
@testable import TextFormats

/// "Did you mean" distances, and the spec checks of `ToolSpec.problems()`.
final class SuggestionAndValidationTests: XCTestCase {
    func testDistanceCountsATranspositionAsOne() {
        XCTAssertEqual(Suggestion.distance(Array("list"), Array("lsit")), 1)
        XCTAssertEqual(Suggestion.distance(Array("online"), Array("onlin")), 1)
        XCTAssertEqual(Suggestion.distance(Array("kitten"), Array("sitting")), 3)
        XCTAssertEqual(Suggestion.distance(Array(""), Array("abc")), 3)
        XCTAssertEqual(Suggestion.distance(Array("ca"), Array("abc")), 3)
    }

    func testClosestPrefersTheNearestThenTheEarliest() {
        let names = ["list", "add", "remove", "rename"]
        XCTAssertEqual(Suggestion.closest(to: "remve", among: names), "remove")
        XCTAssertEqual(Suggestion.closest(to: "renme", among: names), "rename")
        XCTAssertEqual(Suggestion.closest(to: "re", among: names), "remove")
        XCTAssertNil(Suggestion.closest(to: "xyz", among: names))
        XCTAssertNil(Suggestion.closest(to: "ab", among: ["xy"]))
    }

    func testShortInputsNeedACloserMatch() {
        XCTAssertNil(Suggestion.closest(to: "lo", among: ["list"]))
        XCTAssertEqual(Suggestion.closest(to: "lst", among: ["list"]), "list")
    }

    func testSampleSpecsAreSound() {
        XCTAssertEqual(Samples.roster.problems(), [])
        XCTAssertEqual(Samples.login.problems(), [])
        XCTAssertEqual(Samples.avatar.problems(), [])
    }

    func testProblemsAreFound() {
        let spec = ToolSpec(
            name: "Bad Tool", summary: "s", version: "1",
            commonOptions: [.flag("help", help: "mine"), OptionSpec("x", short: "x", value: "A B", help: "h")],
            subcommands: [
                CommandSpec(
                    "run", summary: "r",
                    options: [
                        OptionSpec(
                            "y", short: "x", value: "V", help: "h", default: "c",
                            env: "lower", completion: .values(["a", "b c"]))
                    ],
                    positionals: [
                        PositionalSpec("A", help: "a", variadic: true),
                        PositionalSpec("B", help: "b", optional: true, completion: .custom("Bad kind")),
                        PositionalSpec("C", help: "c"),
                    ]),
                CommandSpec("run", summary: "again"),
            ],
            defaultSubcommand: "missing")
        let problems = spec.problems()
        let expected = [
            "tool name 'Bad Tool' is not lower-case letters, digits and '-'",
            "default subcommand 'missing' is not declared",
            "run: short option -x is declared twice",
            "run: environment variable 'lower' is not A-Z, 0-9 and '_'",
            "run: default 'c' of --y is not one of its values",
            "run: --y: values must be plain words",
            "run: option --x has an empty or spaced value name",
            "run: option --help is declared twice",
            "run: A is variadic but not last",
            "run: B: custom completion kind 'Bad kind' is not safe",
            "run: C is required after an optional argument",
            "subcommand 'run' is declared twice",
        ]
        for problem in expected { XCTAssertTrue(problems.contains(problem), "missing: \(problem)\nin \(problems)") }
    }
}
