import CryptoPrimitives
import XCTest
@testable import XMPPConnection

/// Mechanism names, PLAIN (RFC 4616), the cached-keys encoding and error texts.
final class SASLMechanismTests: XCTestCase {
    func testSCRAMMechanismNames() throws {
        let names = [
            "SCRAM-SHA-1", "SCRAM-SHA-1-PLUS", "SCRAM-SHA-256", "SCRAM-SHA-256-PLUS", "SCRAM-SHA-512", "SCRAM-SHA-512-PLUS",
        ]
        for name in names { XCTAssertEqual(SCRAMMechanism(name: name)?.name, name) }
        XCTAssertEqual(SCRAMMechanism(name: "SCRAM-SHA-256-PLUS"), SCRAMMechanism(hash: .sha256, plus: true))
        for bad in ["", "SCRAM", "SCRAM-SHA-384", "scram-sha-1", "SCRAM-SHA-1-PLUS ", "SCRAM-SHA1", "SCRAM-SHA-1-plus", "PLAIN"] {
            XCTAssertNil(SCRAMMechanism(name: bad), bad)
        }
    }

    func testSCRAMMechanismCodableAsName() throws {
        let data = try JSONEncoder().encode([SCRAMMechanism(hash: .sha512, plus: true)])
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"["SCRAM-SHA-512-PLUS"]"#)
        XCTAssertEqual(try JSONDecoder().decode([SCRAMMechanism].self, from: data), [SCRAMMechanism(hash: .sha512, plus: true)])
        XCTAssertThrowsError(try JSONDecoder().decode([SCRAMMechanism].self, from: Data(#"["DIGEST-MD5"]"#.utf8)))
    }

    func testPLAINMessage() {
        XCTAssertEqual(PLAINMechanism.message(authcid: "tim", password: "tanstaaftanstaaf"), bytes("\0tim\0tanstaaftanstaaf"))
        XCTAssertEqual(
            PLAINMechanism.message(authcid: "Kurt", password: "xipj3plmq", authzid: "Ursel"), bytes("Ursel\0Kurt\0xipj3plmq"))
        XCTAssertEqual(PLAINMechanism.message(authcid: "jöns", password: "p€"), [0] + bytes("jöns") + [0] + bytes("p€"))
    }

    func testSCRAMKeysCodableAndRedacted() throws {
        let keys = try SCRAMKeys.derive(hash: .sha1, password: "pencil", salt: Base64.decode("QSXCR+Q6sek8bf92") ?? [], iterations: 4096)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(keys), as: UTF8.self)
        XCTAssertTrue(json.contains(#""hash":"SHA-1""#), json)
        XCTAssertTrue(json.contains(#""salt":"QSXCR+Q6sek8bf92""#), json)
        XCTAssertTrue(json.contains(#""iterations":4096"#), json)
        XCTAssertTrue(json.contains(#""client_key":""#) && json.contains(#""server_key":""#), json)
        XCTAssertEqual(try JSONDecoder().decode(SCRAMKeys.self, from: Data(json.utf8)), keys)
        XCTAssertThrowsError(try JSONDecoder().decode(
            SCRAMKeys.self, from: Data(json.replacingOccurrences(of: "QSXCR+Q6sek8bf92", with: "not base64!").utf8)))

        XCTAssertFalse("\(keys)".contains(Base64.encode(keys.clientKey)))
        XCTAssertFalse(String(reflecting: keys).contains(Base64.encode(keys.serverKey)))
        XCTAssertEqual("\(keys)", "SCRAMKeys(SHA-1, 4096 iterations, keys redacted)")
    }

    func testErrorDescriptionsAreOneLine() {
        let errors: [SASLError] = [
            .noAcceptableMechanism(offered: []), .noAcceptableMechanism(offered: ["X"]), .scramRequired(offered: ["PLAIN"]), .plainRequiresTLS,
            .plainRefusedAfterSCRAM, .cachedKeysUnusable(.sha1, offered: ["SCRAM-SHA-256"]), .cachedKeysStale,
            .invalidCredential("x"), .malformedServerMessage("x"), .invalidNonce, .iterationCountTooLow(1),
            .iterationCountTooHigh(2), .serverSignatureMismatch, .serverError("invalid-proof"), .invalidUsername("x"),
            .invalidPassword("x"), .channelBindingUnavailable, .outOfOrder("x"),
        ]
        for error in errors {
            XCTAssertFalse(error.description.isEmpty)
            XCTAssertFalse(error.description.contains("\n"))
        }
        XCTAssertTrue(SASLError.cachedKeysStale.description.contains("password"))
    }
}
