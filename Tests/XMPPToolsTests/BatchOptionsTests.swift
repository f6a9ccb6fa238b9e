import Arguments
import XCTest
import XMPPBatch
@testable import XMPPTools

/// The batch command line: typed values, the rules the parser enforces, the checks left by hand.
final class BatchOptionsTests: XCTestCase {
    private func options(_ args: [String]) throws -> BatchOptions {
        let outcome: ParseOutcome
        do {
            outcome = try ArgumentParser.parse((["batch"] + args)[...], spec: RegisterTool.spec)
        } catch {
            throw ToolFailure(.usage, error.description)  // as ToolMain reports it: exit status 2
        }
        guard case .run(let command) = outcome else { throw XCTSkip("not a run") }
        return try BatchOptions(command)
    }

    func testOptionsChecks() throws {
        XCTAssertEqual(try options(["x.csv", "--shard", "2/4"]).shard, try BatchOptions.shard("2/4"))
        for bad in ["0/4", "5/4", "1/0", "a/b", "1"] {
            XCTAssertThrowsError(try BatchOptions.shard(bad)) { XCTAssertEqual(($0 as? ToolFailure)?.code, .usage) }
        }
        XCTAssertThrowsError(try options(["x.csv", "--generate-passwords"])) { XCTAssertEqual(($0 as? ToolFailure)?.code, .usage) }
        XCTAssertThrowsError(try options(["x.csv", "--delete", "--passwd"])) { XCTAssertEqual(($0 as? ToolFailure)?.code, .usage) }
        XCTAssertThrowsError(try options(["x.csv", "--delete", "--on-exists", "update"])) { XCTAssertEqual(($0 as? ToolFailure)?.code, .usage) }
        XCTAssertThrowsError(try options(["x.csv", "--jobs", "0"])) { XCTAssertEqual(($0 as? ToolFailure)?.code, .usage) }
        let o = try options(["-", "--jobs", "8", "--on-exists", "update"])
        XCTAssertEqual(o.input, "-")
        XCTAssertEqual(o.jobs, 8)
        XCTAssertEqual(o.onExists, .update)
        XCTAssertEqual(try options(["x.csv"]).jobs, 4)
    }

    /// What the parser refuses by the spec's rules, and the one check a rule cannot say.
    func testRulesAndTheDryRunException() throws {
        let refused = [
            (["x.csv", "--passwd", "--on-exists", "fail"], "--on-exists and --passwd cannot be used together: --on-exists applies to creating accounts"),
            (["x.csv", "--delete", "--generate-passwords"], "--generate-passwords and --delete cannot be used together: the CSV's passwords log in"),
        ]
        for (args, message) in refused {
            XCTAssertThrowsError(try options(args)) { XCTAssertTrue(($0 as? ToolFailure)?.message.hasSuffix(message) ?? false, "\($0)") }
        }
        XCTAssertTrue(try options(["x.csv", "--generate-passwords", "--dry-run"]).generatePasswords, "a dry run writes nothing: no --report needed")
        XCTAssertEqual(try options(["x.csv", "--passwd", "--generate-passwords", "--report", "r.csv"]).mode, .passwd)
        let configuration = try options(["x.csv", "--delete", "--domain", "d.example", "--window", "7"]).configuration(common: CommonOptions())
        XCTAssertEqual(configuration.mode, .delete)
        XCTAssertEqual(configuration.domain, "d.example")
        XCTAssertEqual(configuration.window, 7)
        XCTAssertEqual(configuration.timeout, 15)
    }
}
