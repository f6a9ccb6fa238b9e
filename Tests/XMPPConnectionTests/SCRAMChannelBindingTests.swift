import CryptoPrimitives
import XCTest
@testable import XMPPConnection

/// gs2 headers (RFC 5802 §6–7) and the `c=` attribute, checked byte for byte and by a server.
final class SCRAMChannelBindingTests: XCTestCase {
    private let cbData: [UInt8] = Array(0..<32)

    private func exchange(_ mechanism: SCRAMMechanism, _ binding: ChannelBinding) throws -> (first: String, cAttribute: String) {
        var server = TestSCRAMServer(hash: mechanism.hash, password: "pw", salt: [1, 2, 3], iterations: 4096)
        if case .bound(_, let data) = binding { server.expectedChannelBinding = Array(binding.gs2Header.utf8) + data }
        var scram = try SCRAMClient(
            mechanism: mechanism, username: "user", credential: .password("pw"), channelBinding: binding,
            clientNonce: "nonce")
        let first = scram.clientFirstMessage()
        let final = try scram.clientFinalMessage(serverFirst: server.respond(toClientFirst: first))
        try scram.verify(serverFinal: server.respond(toClientFinal: final))
        let cAttribute = String(String(decoding: final, as: UTF8.self).split(separator: ",")[0])
        return (String(decoding: first, as: UTF8.self), cAttribute)
    }

    func testNoChannelBindingSupport() throws {
        let result = try exchange(SCRAMMechanism(hash: .sha1, plus: false), .unsupported)
        XCTAssertEqual(result.first, "n,,n=user,r=nonce")
        XCTAssertEqual(result.cAttribute, "c=biws")  // base64("n,,")
    }

    func testSupportedButServerOffersNoPlus() throws {
        let result = try exchange(SCRAMMechanism(hash: .sha256, plus: false), .supportedButNotUsed)
        XCTAssertEqual(result.first, "y,,n=user,r=nonce")
        XCTAssertEqual(result.cAttribute, "c=eSws")  // base64("y,,")
    }

    func testTLSUnique() throws {
        let result = try exchange(SCRAMMechanism(hash: .sha1, plus: true), .bound(.tlsUnique, cbData))
        XCTAssertEqual(result.first, "p=tls-unique,,n=user,r=nonce")
        XCTAssertEqual(result.cAttribute, "c=" + Base64.encode(Array("p=tls-unique,,".utf8) + cbData))
        XCTAssertEqual(
            result.cAttribute,
            "c=cD10bHMtdW5pcXVlLCwAAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHw==")
    }

    func testTLSExporter() throws {
        let result = try exchange(SCRAMMechanism(hash: .sha512, plus: true), .bound(.tlsExporter, cbData))
        XCTAssertEqual(result.first, "p=tls-exporter,,n=user,r=nonce")
        XCTAssertEqual(
            result.cAttribute,
            "c=cD10bHMtZXhwb3J0ZXIsLAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f")
    }

    func testServerSeesDifferentBindingData() throws {
        var server = TestSCRAMServer(hash: .sha256, password: "pw", salt: [1], iterations: 4096)
        server.expectedChannelBinding = Array("p=tls-exporter,,".utf8) + [UInt8](repeating: 0xEE, count: 32)
        var scram = try SCRAMClient(
            mechanism: SCRAMMechanism(hash: .sha256, plus: true), username: "user", credential: .password("pw"),
            channelBinding: .bound(.tlsExporter, cbData))
        let final = try scram.clientFinalMessage(serverFirst: server.respond(toClientFirst: scram.clientFirstMessage()))
        XCTAssertThrowsError(try server.respond(toClientFinal: final))
    }

    func testMechanismAndBindingMustAgree() {
        let plus = SCRAMMechanism(hash: .sha1, plus: true)
        let plain = SCRAMMechanism(hash: .sha1, plus: false)
        for (mechanism, binding) in [
            (plus, ChannelBinding.unsupported), (plus, .supportedButNotUsed), (plain, .bound(.tlsUnique, cbData)),
        ] {
            assertSASLError(.channelBindingUnavailable) { () throws(SASLError) in
                try SCRAMClient(mechanism: mechanism, username: "u", credential: .password("p"), channelBinding: binding)
            }
        }
    }
}
