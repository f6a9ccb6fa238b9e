import CryptoPrimitives
import XCTest
@testable import XMPPConnection

/// Hostile or broken server messages end in typed errors, never a crash.
final class SCRAMServerMessageTests: XCTestCase {
    private let salt = "QSXCR+Q6sek8bf92"

    /// A client that has sent client-first with nonce `abc`.
    private func started(_ credential: SCRAMCredential = .password("pencil")) throws -> SCRAMClient {
        var scram = try SCRAMClient(
            mechanism: SCRAMMechanism(hash: .sha1, plus: false), username: "user", credential: credential,
            channelBinding: .unsupported, clientNonce: "abc")
        _ = scram.clientFirstMessage()
        return scram
    }

    private func assertServerFirst(_ message: String, throws expected: SASLError, line: UInt = #line) throws {
        var scram = try started()
        assertSASLError(expected, line: line) { () throws(SASLError) in
            try scram.clientFinalMessage(serverFirst: bytes(message))
        }
    }

    func testNonceMustExtendClientNonce() throws {
        try assertServerFirst("r=xyzabc,s=\(salt),i=4096", throws: .invalidNonce)
        try assertServerFirst("r=ab,s=\(salt),i=4096", throws: .invalidNonce)
        try assertServerFirst("r=abc,s=\(salt),i=4096", throws: .invalidNonce)  // no server part
    }

    func testServerErrorAttribute() throws {
        try assertServerFirst("e=unknown-user", throws: .serverError("unknown-user"))
        var scram = try started()
        _ = try scram.clientFinalMessage(serverFirst: bytes("r=abcdef,s=\(salt),i=4096"))
        assertSASLError(.serverError("invalid-proof")) { () throws(SASLError) in
            try scram.verify(serverFinal: bytes("e=invalid-proof"))
        }
    }

    func testMalformedServerFirst() throws {
        let malformed = [
            "", "r=abcdef,i=4096", "r=abcdef,s=\(salt)", "s=\(salt),r=abcdef,i=4096", "r=abcdef,i=4096,s=\(salt)",
            "r=abcdef,s=,i=4096", "r=abcdef,s=not*base64,i=4096", "r=abcdef,s=QSXC,i=4096x",
            "r=abcdef,s=\(salt),i=abc", "r=abcdef,s=\(salt),i=", "r=abcdef,s=\(salt),i=-5000", "r=abcdef,s=\(salt),i=+5000",
            "r=abcdef,s=\(salt),i=04096", "r=abcdef,s=\(salt),i= 4096", "m=ext,r=abcdef,s=\(salt),i=4096",
            "r=abcdef,,s=\(salt),i=4096", "rabcdef,s=\(salt),i=4096", "r=abc\u{7f}def,s=\(salt),i=4096",
            "r=abcdéf,s=\(salt),i=4096", "r=,s=\(salt),i=4096", "1=abcdef,s=\(salt),i=4096", "r=abcdef,s=\(salt),i=4096,",
        ]
        for message in malformed {
            var scram = try started()
            XCTAssertThrowsError(try scram.clientFinalMessage(serverFirst: bytes(message)), message) { error in
                guard case .malformedServerMessage = error as? SASLError else {
                    return XCTFail("\(message): \(error)")
                }
            }
        }
        var scram = try started()
        assertSASLError(.malformedServerMessage("not UTF-8")) { () throws(SASLError) in
            try scram.clientFinalMessage(serverFirst: [0x72, 0x3d, 0xff, 0xfe])
        }
    }

    func testIterationBounds() throws {
        try assertServerFirst("r=abcdef,s=\(salt),i=0", throws: .iterationCountTooLow(0))
        try assertServerFirst("r=abcdef,s=\(salt),i=4095", throws: .iterationCountTooLow(4095))
        try assertServerFirst("r=abcdef,s=\(salt),i=600001", throws: .iterationCountTooHigh(600_001))
        try assertServerFirst("r=abcdef,s=\(salt),i=10000000", throws: .iterationCountTooHigh(10_000_000))
        XCTAssertEqual(try SCRAMMessages.parseIterationCount("600000"), 600_000)
        XCTAssertEqual(try SCRAMMessages.parseIterationCount("4096"), 4096)
        try assertServerFirst(
            "r=abcdef,s=\(salt),i=99999999999999999999999999", throws: .iterationCountTooHigh(Int.max))
    }

    func testExtensionsAfterKnownAttributesAreIgnored() throws {
        var scram = try started()
        XCTAssertNoThrow(try scram.clientFinalMessage(serverFirst: bytes("r=abcdef,s=\(salt),i=4096,x=future")))
        // The extension parses; only the (made-up) signature is wrong.
        assertSASLError(.serverSignatureMismatch) { () throws(SASLError) in
            try scram.verify(serverFinal: bytes("v=AAAA,x=1"))
        }
    }

    func testMalformedServerFinal() throws {
        for message in ["", "x=1", "v=", "v=***", "v=AAA", ",v=AAAA", "V=AAAA"] {
            var scram = try started()
            _ = try scram.clientFinalMessage(serverFirst: bytes("r=abcdef,s=\(salt),i=4096"))
            XCTAssertThrowsError(try scram.verify(serverFinal: bytes(message)), message) { error in
                guard case .malformedServerMessage = error as? SASLError else { return XCTFail("\(message): \(error)") }
            }
            XCTAssertFalse(scram.isVerified)
        }
    }

    func testWrongSignatureOfRightLength() throws {
        var scram = try started()
        _ = try scram.clientFinalMessage(serverFirst: bytes("r=abcdef,s=\(salt),i=4096"))
        assertSASLError(.serverSignatureMismatch) { () throws(SASLError) in
            try scram.verify(serverFinal: bytes("v=" + Base64.encode([UInt8](repeating: 7, count: 20))))
        }
    }

    func testStepsOutOfOrder() throws {
        var fresh = try SCRAMClient(
            mechanism: SCRAMMechanism(hash: .sha1, plus: false), username: "u", credential: .password("p"),
            channelBinding: .unsupported)
        XCTAssertThrowsError(try fresh.verify(serverFinal: bytes("v=AAAA")))
        XCTAssertThrowsError(try fresh.clientFinalMessage(serverFirst: bytes("r=abcdef,s=\(salt),i=4096")))
        var scram = try started()
        _ = try scram.clientFinalMessage(serverFirst: bytes("r=abcdef,s=\(salt),i=4096"))
        XCTAssertThrowsError(try scram.clientFinalMessage(serverFirst: bytes("r=abcdef,s=\(salt),i=4096")))
    }

    func testHostileInputsNeverCrash() throws {
        // Deterministic pseudo-random junk built from SCRAM-ish pieces.
        let pieces = ["r=", "s=", "i=", "e=", "m=", "v=", ",", "=", "abc", "def", "4096", "QSXC", "==", "\u{0}", "é", "9999999999"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            var message = ""
            for _ in 0..<Int(state % 9) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                message += pieces[Int(state >> 33) % pieces.count]
            }
            var scram = try started()
            _ = try? scram.clientFinalMessage(serverFirst: bytes(message))
            _ = try? scram.verify(serverFinal: bytes(message))
        }
    }
}
