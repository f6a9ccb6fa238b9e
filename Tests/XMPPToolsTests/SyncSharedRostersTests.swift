import Arguments
import ServerAdmin
import TextFormats
import XCTest
import XMPPBatch
@testable import XMPPTools

/// What `sync --rosters shared` adds to sync's plan: a 'shared' line per change, a summary line,
/// and `shared_groups` in the JSON with `changes` true when only the groups change.
final class SyncSharedRostersTests: XCTestCase {
    private func planned(_ csv: String, current: [EjabberdAPI.SharedGroup]) throws -> (SyncSharedRosters.Planned, [EjabberdAPI.SharedGroup]) {
        var configuration = BatchConfiguration()
        configuration.domain = "x.org"
        configuration.generatePasswords = true
        let sheet = try BatchSheet(input: Array(("username,groups,contacts\n" + csv).utf8), name: "t", configuration: configuration, baseDirectory: "/")
        let plan = SharedGroupsPlan(ejabberd: try SharedGroups(sheet: sheet, kind: .ejabberd), current: current)
        return (SyncSharedRosters.Planned(plan: plan, server: nil, via: "ejabberd's HTTP API"), plan.wanted)
    }

    func testANewPupilIsOneSharedLine() throws {
        let school = "a1,C,C;T\na2,C,C;T\nt1,T,T;C\nt2,T,T;C\n"
        let (_, now) = try planned(school, current: [])
        let (joined, _) = try planned(school + "a3,C,C;T\n", current: now)
        XCTAssertEqual(SyncSharedRosters.lines(joined), ["shared   add a3@x.org to 'C'",
                                                         "Shared groups: 1 membership or group change on x.org, through ejabberd's HTTP API."])
        let (same, _) = try planned(school, current: now)
        XCTAssertEqual(SyncSharedRosters.lines(same), ["Shared groups: nothing to change on x.org, through ejabberd's HTTP API."])

        let base = JSONValue.object([("format_version", .string("1.2")), ("changes", .bool(false)), ("managed", .int(4))])
        guard case .object(let fields) = SyncSharedRosters.json(joined, into: base) else { return XCTFail("not an object") }
        XCTAssertEqual(fields.map(\.0), ["format_version", "changes", "managed", "shared_groups"])
        XCTAssertEqual(fields[1].1, .bool(true), "a group change is a change")
        XCTAssertEqual(fields[3].1.compact, #"{"server":"ejabberd","domain":"x.org","changes":[{"action":"add","jid":"a3@x.org","group":"C"}]}"#)
        guard case .object(let unchanged) = SyncSharedRosters.json(same, into: base) else { return XCTFail("not an object") }
        XCTAssertEqual(unchanged[1].1, .bool(false))
    }

    /// The options of `sync ARGS`, as the command reads them (nil: per-account rosters).
    private func options(_ args: [String]) throws -> SyncSharedRosters? {
        let outcome: ParseOutcome
        do { outcome = try ArgumentParser.parse((["sync", "x.csv", "--admin"] + args)[...], spec: RegisterTool.spec) } catch {
            throw ToolFailure(.usage, error.description)
        }
        guard case .run(let command) = outcome else { throw XCTSkip("not a run") }
        let environment = try ToolEnvironment(program: "xmpp-register", variables: ["HOME": NSTemporaryDirectory()])
        let invocation = Invocation(command: command, environment: environment, common: try CommonOptions(command))
        return try SyncSharedRosters(invocation, input: "x.csv")
    }

    func testTheServersOptionsGoWithRostersShared() throws {
        XCTAssertNil(try options([]))
        XCTAssertNil(try options(["--rosters", "per-account"]))
        XCTAssertEqual(try options(["--rosters", "shared", "--for", "ejabberd"])?.kind, .ejabberd)
        XCTAssertEqual(try options(["--rosters", "shared", "--for", "ejabberd", "--password-file", "/pw"])?.access.password.file, "/pw")
        XCTAssertEqual(try options(["--rosters", "shared", "--for", "prosody", "--groups-file", "/g"])?.access.groupsFile, "/g")
        XCTAssertEqual(try options(["--rosters", "shared", "--for", "ejabberd", "--ejabberdctl", "sudo ejabberdctl"])?.access.ejabberdctl,
                       "sudo ejabberdctl")
        for bad in [["--for", "ejabberd"], ["--groups-file", "/g"], ["--rosters", "shared"], ["--rosters", "other"],
                    ["--rosters", "shared", "--for", "prosody", "--api", "https://x/api"],
                    ["--rosters", "shared", "--for", "ejabberd", "--groups-file", "/g"],
                    ["--rosters", "shared", "--for", "ejabberd", "--api", "https://x/api", "--ejabberdctl", "ejabberdctl"],
                    ["--password-file", "/pw"], ["--rosters", "shared", "--for", "prosody", "--groups-file", "/g", "--password-stdin"],
                    ["--rosters", "shared", "--for", "ejabberd", "--ejabberdctl", "ejabberdctl", "--password-file", "/pw"]] {
            XCTAssertThrowsError(try options(bad), "\(bad)") { XCTAssertEqual(($0 as? ToolFailure)?.code, .usage, "\(bad)") }
        }
    }
}
