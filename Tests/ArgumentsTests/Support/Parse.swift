import Arguments
import XCTest

/// Shorthands for parsing a command line written as one string.
enum Parse {
    /// The words of `line`, split on spaces (tests need no quoting).
    static func words(_ line: String) -> ArraySlice<String> {
        ArraySlice(line.split(separator: " ").map(String.init))
    }

    /// The command `line` runs, failing the test on any other outcome.
    static func run(
        _ line: String, _ spec: ToolSpec = Samples.roster, environment: [String: String] = [:],
        file: StaticString = #filePath, line number: UInt = #line
    ) throws -> ParsedCommand {
        let outcome = try ArgumentParser.parse(words(line), spec: spec, environment: environment)
        guard case .run(let command) = outcome else {
            XCTFail("expected a command to run, got \(outcome)", file: file, line: number)
            throw Unexpected()
        }
        return command
    }

    /// The usage error `line` causes, failing the test if it parses.
    static func error(
        _ line: String, _ spec: ToolSpec = Samples.roster, environment: [String: String] = [:],
        file: StaticString = #filePath, line number: UInt = #line
    ) -> ArgumentError? {
        do throws(ArgumentError) {
            let outcome = try ArgumentParser.parse(words(line), spec: spec, environment: environment)
            XCTFail("expected an error, got \(outcome)", file: file, line: number)
            return nil
        } catch {
            return error
        }
    }

    /// The outcome was not the one the test expected.
    struct Unexpected: Error {}
}
