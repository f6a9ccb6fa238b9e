import TextFormats
import Arguments
import Foundation
import XCTest
import XMPPStanzas
@testable import XMPPTools

/// Header columns, row validation, duplicates, sharding, options.
final class BatchValidationTests: XCTestCase {
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

    private func check(_ csv: String, _ args: [String] = ["x.csv"], base: String = "/nonexistent") throws -> [CheckedRow] {
        let records = try CSVReader.parse(Array(csv.utf8))
        let opts = try options(args)
        let columns = try BatchColumns(header: records[0], mode: opts.mode, options: opts)
        var validator = BatchValidator(columns: columns, options: opts, baseDirectory: base)
        return validator.check(Array(records.dropFirst()))
    }

    private func reasons(_ rows: [CheckedRow]) -> [Int: String] {
        var out: [Int: String] = [:]
        for case .invalid(let r) in rows { out[r.line] = r.reason }
        return out
    }

    func testBadRowsAreNamedByLine() throws {
        let rows = try check("""
        Password, JID ,nickname
        pw1,alice@example.org,Al
        pw2,bad user@example.org,
        ,carol@example.org,
        pw4,Alice@Example.org,
        pw5,dave,
        pw6,erin@example.org/res,
        pw7,frank@example.org,x,extra
        pw8,gina@example.org,"tab\there"
        """)
        XCTAssertEqual(rows.count, 8)
        guard case .valid(let alice) = rows[0] else { return XCTFail("alice invalid: \(rows[0])") }
        XCTAssertEqual(alice.jid.description, "alice@example.org")
        XCTAssertEqual(alice.password, "pw1")
        XCTAssertEqual(alice.profile.names, ["nickname"])
        XCTAssertEqual(reasons(rows), [
            3: "invalid JID 'bad user@example.org': local part may not contain ' '",
            4: "missing password",
            5: "duplicate of line 2 (alice@example.org)",
            6: "'dave' has no domain: write user@domain, or pass --domain",
            7: "'erin@example.org/res' has a resource; an account is user@domain",
            8: "4 fields but the header has 3 (a comma in an unquoted value?)",
            9: "nickname contains a control character",
        ])
    }

    func testUsernameColumnWithDomainAndGeneratedPasswords() throws {
        let rows = try check("username\nZoë\nbob\n", ["x.csv", "--domain", "example.org", "--generate-passwords", "--report", "r.csv"])
        XCTAssertEqual(rows.map { if case .valid(let r) = $0 { return r.jid.description } else { return "-" } },
                       ["zoë@example.org", "bob@example.org"])
        XCTAssertEqual(rows.map { if case .valid(let r) = $0 { return r.password == nil } else { return false } }, [true, true])
    }

    func testHeaderProblemsRefuseTheFile() throws {
        XCTAssertThrowsError(try check("name,password\na,b\n")) { XCTAssertEqual(($0 as? ToolFailure)?.code, .badInput) }
        XCTAssertThrowsError(try check("jid,username,password\n")) { XCTAssertEqual(($0 as? ToolFailure)?.code, .badInput) }
        XCTAssertThrowsError(try check("jid\na@b.c\n")) { XCTAssertEqual(($0 as? ToolFailure)?.message, "line 1: the header needs a 'password' column (or pass --generate-passwords)") }
        XCTAssertThrowsError(try check("jid,jid,password\n")) { XCTAssertEqual(($0 as? ToolFailure)?.code, .badInput) }
        XCTAssertThrowsError(try check("username,password\n")) { XCTAssertEqual(($0 as? ToolFailure)?.code, .usage) }
        XCTAssertThrowsError(try check("jid,password\n", ["x.csv", "--passwd"])) {
            XCTAssertEqual(($0 as? ToolFailure)?.message, "line 1: --passwd needs a 'new_password' column (or --generate-passwords)")
        }
    }

    func testEmailAndAvatarChecks() throws {
        let dir = NSTemporaryDirectory() + "xt-avatar-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: dir + "/fake.png"))
        let rows = try check("""
        jid,password,email,avatar
        a@x.org,p,a@mail.example,
        b@x.org,p,not-an-email,
        c@x.org,p,,missing.png
        d@x.org,p,,fake.png
        """, base: dir)
        XCTAssertEqual(reasons(rows), [
            3: "email 'not-an-email' is not an address like name@example.org",
            4: "avatar missing.png: no such file",
            5: "avatar fake.png: not a PNG or JPEG image",
        ])
    }

    func testShardIsDeterministicAndPartitions() {
        let jids = (0..<400).map { "user\($0)@example.org" }
        let buckets = jids.map { BatchInput.shard(of: $0, count: 4) }
        XCTAssertEqual(buckets, jids.map { BatchInput.shard(of: $0, count: 4) })
        for k in 0..<4 { XCTAssertGreaterThan(buckets.filter { $0 == k }.count, 50, "shard \(k) is lopsided") }
        // Fixed values (also what Python's hashlib gives): the split must never change between
        // versions or machines, or N machines sharing one CSV would overlap.
        XCTAssertEqual(BatchInput.shard(of: "alice@example.org", count: 1000), 360)
        XCTAssertEqual((0..<8).map { BatchInput.shard(of: "user\($0)@example.org", count: 3) }, [2, 1, 2, 0, 2, 2, 1, 2])
    }

    func testOptionsChecks() throws {
        XCTAssertEqual(try options(["x.csv", "--shard", "2/4"]).shard, try Shard("2/4"))
        for bad in ["0/4", "5/4", "1/0", "a/b", "1"] {
            XCTAssertThrowsError(try Shard(bad)) { XCTAssertEqual(($0 as? ToolFailure)?.code, .usage) }
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
}
