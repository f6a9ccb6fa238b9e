import XCTest
import XMPPStanzas
@testable import XMPPBatch

/// The compact record of the accounts a batch has seen tells exactly what a dictionary of JIDs
/// tells: the first line of every repeated account, nil for every new one, across domains,
/// non-ASCII localparts and the table's growth.
final class AccountFirstLinesTests: XCTestCase {
    func testItAnswersAsADictionaryOfJIDsWould() throws {
        var compact = AccountFirstLines()
        var reference: [JID: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        let domains = ["example.org", "example.net", "école.example", "a.example"]
        let locals = ["user", "zoë", "美咲", "a", String(repeating: "long", count: 200)]
        for line in 1...20_000 {
            // Repeats are frequent (at most 1,000 distinct localparts per name and domain).
            let text = "\(locals[Int(generator.next() % 5)])\(generator.next() % 1_000)@\(domains[Int(generator.next() % 4)])"
            let jid = try JID(text)
            let expected = reference[jid]
            if expected == nil { reference[jid] = line }
            XCTAssertEqual(compact.firstLine(of: jid, line: line), expected, text)
        }
        XCTAssertGreaterThan(reference.count, 10_000)
    }

    func testAccountsThatDifferInOneByteOrInTheirDomainAreDifferent() throws {
        var compact = AccountFirstLines()
        XCTAssertNil(compact.firstLine(of: try JID("ab@x.example"), line: 2))
        XCTAssertNil(compact.firstLine(of: try JID("a@bx.example"), line: 3))
        XCTAssertNil(compact.firstLine(of: try JID("ab@y.example"), line: 4))
        XCTAssertNil(compact.firstLine(of: try JID("ac@x.example"), line: 5))
        XCTAssertEqual(compact.firstLine(of: try JID("AB@X.example"), line: 6), 2)
        XCTAssertEqual(compact.firstLine(of: try JID("ac@x.example"), line: 300_000), 5)
    }
}
