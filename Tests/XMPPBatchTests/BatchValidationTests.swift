import TextFormats
import Foundation
import XCTest
import XMPPStanzas
@testable import XMPPBatch

/// Header columns, row validation, duplicates, sharding.
final class BatchValidationTests: XCTestCase {
    private func check(_ csv: String, _ configuration: BatchConfiguration = BatchConfiguration(),
                       base: String = "/nonexistent") throws -> [CheckedRow] {
        let records = try CSVReader.parse(Array(csv.utf8))
        let columns = try BatchColumns(header: records[0], configuration: configuration)
        var validator = BatchValidator(columns: columns, configuration: configuration, baseDirectory: base)
        return validator.check(Array(records.dropFirst()))
    }

    private func configuration(_ mode: BatchMode = .create, domain: String? = nil, generatePasswords: Bool = false) -> BatchConfiguration {
        var configuration = BatchConfiguration()
        configuration.mode = mode
        configuration.domain = domain
        configuration.generatePasswords = generatePasswords
        return configuration
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

    /// A row that lost a field is that row's error, named by its line; the others go ahead.
    func testARowWithFewerFieldsThanTheHeaderIsInvalid() throws {
        let rows = try check("jid,password,nickname\na@example.org,pw,A\nb@example.org,pw\nc@example.org,pw,\n")
        XCTAssertEqual(reasons(rows), [3: "2 fields where the header has 3 (a missing delimiter, or a line break outside quotes?)"])
        XCTAssertEqual(rows.count, 3)
    }

    /// European Excel writes semicolons, and "Unicode Text" UTF-16 with tabs: both are batches.
    func testSpreadsheetDialectsAreReadAsBatches() throws {
        let semicolons = try BatchSheet(input: Array("sep=;\r\njid;password\r\na@example.org;pw\r\n".utf8), name: "x.csv",
                                        configuration: BatchConfiguration(), baseDirectory: "/")
        guard case .valid(let a)? = semicolons.rows.first else { return XCTFail("\(semicolons.rows)") }
        XCTAssertEqual(a.line, 3)
        XCTAssertEqual(a.password, "pw")
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "jid\tpassword\r\nzoë@example.org\tpw\r\n".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let unicodeText = try BatchSheet(input: utf16, name: "x.txt", configuration: BatchConfiguration(), baseDirectory: "/")
        guard case .valid(let z)? = unicodeText.rows.first else { return XCTFail("\(unicodeText.rows)") }
        XCTAssertEqual(z.jid.description, "zoë@example.org")
    }

    func testUsernameColumnWithDomainAndGeneratedPasswords() throws {
        let rows = try check("username\nZoë\nbob\n", configuration(domain: "example.org", generatePasswords: true))
        XCTAssertEqual(rows.map { if case .valid(let r) = $0 { return r.jid.description } else { return "-" } },
                       ["zoë@example.org", "bob@example.org"])
        XCTAssertEqual(rows.map { if case .valid(let r) = $0 { return r.password == nil } else { return false } }, [true, true])
    }

    func testHeaderProblemsRefuseTheFile() throws {
        func badHeader(_ error: any Error) -> Bool { if case .badHeader? = error as? BatchError { return true } else { return false } }
        XCTAssertThrowsError(try check("name,password\na,b\n")) { XCTAssertTrue(badHeader($0), "\($0)") }
        XCTAssertThrowsError(try check("jid,username,password\n")) { XCTAssertTrue(badHeader($0), "\($0)") }
        XCTAssertThrowsError(try check("jid\na@b.c\n")) { XCTAssertEqual(($0 as? BatchError)?.description, "line 1: the header needs a 'password' column (or pass --generate-passwords)") }
        XCTAssertThrowsError(try check("jid,jid,password\n")) { XCTAssertTrue(badHeader($0), "\($0)") }
        XCTAssertThrowsError(try check("username,password\n")) { XCTAssertEqual($0 as? BatchError, .usernameNeedsDomain) }
        XCTAssertThrowsError(try check("jid,password\n", configuration(.passwd))) {
            XCTAssertEqual(($0 as? BatchError)?.description, "line 1: --passwd needs a 'new_password' column (or --generate-passwords)")
        }
    }

    func testEmailAndAvatarChecks() throws {
        let dir = try scratchDirectory("avatar")
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
            5: "avatar fake.png: not a PNG, JPEG or WebP image",
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

    func testShardReadsKOfN() {
        XCTAssertEqual(Shard("2/4")?.index, 2)
        XCTAssertEqual(Shard("2/4")?.count, 4)
        for bad in ["0/4", "5/4", "1/0", "a/b", "1"] { XCTAssertNil(Shard(bad), bad) }
    }

    /// A sheet keeps only its shard's rows, invalid ones included (by their raw JID text).
    func testSheetKeepsItsShard() throws {
        let csv = "jid,password\n" + (0..<40).map { "user\($0)@example.org,pw\n" }.joined() + "bad user@example.org,pw\n"
        var all: [Int] = []
        for k in 1...3 {
            var configuration = BatchConfiguration()
            configuration.shard = Shard("\(k)/3")
            let sheet = try BatchSheet(input: Array(csv.utf8), name: "x.csv", configuration: configuration, baseDirectory: "/")
            all += sheet.rows.map(\.line)
        }
        XCTAssertEqual(all.sorted(), Array(2...42), "the shards split the rows without overlap")
        XCTAssertThrowsError(try BatchSheet(input: [], name: "standard input", configuration: BatchConfiguration(), baseDirectory: "/")) {
            XCTAssertEqual(($0 as? BatchError)?.description, "standard input: no header row (expected e.g. jid,password)")
        }
    }
}
