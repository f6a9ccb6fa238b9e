import CryptoPrimitives
import Foundation
import XCTest
import XMLTree
import XMPPStanzas
@testable import XMPPConnection

/// Pipelined session log-ins (`ConnectionOptions.pipelined`, `LoginRequest.expectedMechanism`)
/// against scripted peers that answer only once the pipelined element has arrived, so a client
/// that waited for the features first would hang; and the give-up when the features that then
/// arrive do not fit what was sent.
final class HostilePipelinedLogInTests: HostilePeerTestCase {
    static let token = HostileSASL2Tests.token
    static let mechanism = FASTMechanism(hash: .sha256, binding: nil)

    /// `request` against `peer` through both drivers of the connection engine.
    func run(_ peer: ScriptedPeer, _ request: LoginRequest, file: StaticString = #filePath, line: UInt = #line)
        -> Result<LoginOutcome, ConnectionError>? {
        let options = ConnectionOptions(domain: "localhost", serverHost: "127.0.0.1", serverPort: peer.port, timeout: .seconds(3),
                                        account: "alice@localhost", pipelined: true)
        return runBothDrivers(peer, options: options, request: request, file: file, line: line)
    }

    static func tokenRequest(expected: String? = mechanism.name) -> LoginRequest {
        LoginRequest(username: "alice", credential: .token(mechanism, secret: token), usedSCRAMBefore: true,
                     userAgentID: HostileSASL2Tests.userAgent, expectedMechanism: expected)
    }

    static func tokenSuccess(_ text: String) -> String {
        let given = Base64.decode(PeerScript.payload(of: "initial-response", in: text)) ?? []
        guard given == mechanism.initialResponse(username: "alice", token: token, channelBindingData: []) else {
            return "<failure xmlns='urn:xmpp:sasl:2'><not-authorized xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/></failure>"
        }
        let proof = mechanism.expectedResponse(token: token, channelBindingData: [])
        return "<success xmlns='urn:xmpp:sasl:2'><additional-data>\(Base64.encode(proof))</additional-data>"
            + "<authorization-identifier>alice@localhost/4a9f</authorization-identifier><bound xmlns='urn:xmpp:bind:0'/>"
            + "<token xmlns='urn:xmpp:fast:0' expiry='2030-01-01T00:00:00Z' token='secret-token:rotated'/></success>"
            + HostileSASL2Tests.postAuthFeatures
    }

    /// The token, Bind 2 without a tag and the rotated token, with the server sending nothing
    /// before each pipelined element arrived.
    func testTokenLogInSendsStartTLSAndAuthenticateWithTheirHeaders() throws {
        let peer = try pipelinedPeer(HostileSASL2Tests.sasl2Features(["SCRAM-SHA-1"]), answer: Self.tokenSuccess)
        guard case .success(let outcome)? = run(peer, Self.tokenRequest()) else { return XCTFail("pipelined token log-in failed") }
        XCTAssertEqual(outcome.boundJID?.description, "alice@localhost/4a9f")
        XCTAssertEqual(outcome.token?.token.secret, "secret-token:rotated")
        XCTAssertEqual(outcome.token?.mechanism, Self.mechanism)
        peer.stop()
        let text = peer.transcript(0)?.text ?? ""
        XCTAssertTrue(text.contains("<bind xmlns='urn:xmpp:bind:0'/>"), "Bind 2 without a tag: \(text)")
        XCTAssertFalse(text.contains("<iq"), text)
    }

    /// Features without the token's mechanism after the pipelined `<authenticate/>`: the stream
    /// is given up, whatever the server answered, for the caller to connect again.
    func testFeaturesWithoutTheRememberedMechanismGiveTheStreamUp() throws {
        for features in [PeerScript.saslFeatures(["SCRAM-SHA-1"]), HostileSASL2Tests.sasl2Features(["SCRAM-SHA-1"], fast: nil),
                         HostileSASL2Tests.sasl2Features(["SCRAM-SHA-1"], fast: ["HT-SHA-256-EXPR"])] {
            let peer = try pipelinedPeer(features, answer: Self.tokenSuccess)
            guard case .failure(.sasl(.rememberedOfferChanged))? = run(peer, Self.tokenRequest()) else {
                return XCTFail("expected rememberedOfferChanged with \(features)")
            }
            peer.stop()
        }
    }

    /// Cached keys remembered with SASL2: client-first goes with the header, SSDP is checked
    /// against the features that arrived, and the SCRAM proof completes as usual.
    func testSCRAMKeysLogInPipelinesClientFirst() throws {
        let mechanisms = ["SCRAM-SHA-1", "PLAIN"]
        let keys = try SCRAMKeys.derive(hash: .sha1, password: Self.password, salt: Array("hostile-salt".utf8), iterations: 4096)
        let server = SCRAMServerBox(password: Self.password)
        server.scram.serverFirstExtension = ",h=" + HostileSASL2Tests.ssdpHash(mechanisms)
        let localhost = localhost!
        let peer = try scriptedPeer {
            [.expect(PeerScript.starttlsEnd), .send(PeerScript.serverHeader + PeerScript.tlsFeatures + PeerScript.proceed),
             .startTLS(localhost),
             .reply(to: "</authenticate>") { text in
                 let first = (try? server.scram.respond(toClientFirst: Base64.decode(PeerScript.payload(of: "initial-response", in: text)) ?? [])) ?? []
                 return PeerScript.serverHeader + HostileSASL2Tests.sasl2Features(mechanisms)
                     + "<challenge xmlns='urn:xmpp:sasl:2'>\(Base64.encode(first))</challenge>"
             },
             .reply(to: "</response>") { text in
                 let final = (try? server.scram.respond(toClientFinal: Base64.decode(PeerScript.payload(of: "response", in: text)) ?? [])) ?? []
                 return "<success xmlns='urn:xmpp:sasl:2'><additional-data>\(Base64.encode(final))</additional-data>"
                     + "<authorization-identifier>alice@localhost/xmpp-tools.1~a</authorization-identifier><bound xmlns='urn:xmpp:bind:0'/>"
                     + "</success>" + HostileSASL2Tests.postAuthFeatures
             },
             .stall]
        }
        let request = LoginRequest(username: "alice", credential: .keys(keys), usedSCRAMBefore: true, expectedMechanism: "SCRAM-SHA-1")
        guard case .success(let outcome)? = run(peer, request) else { return XCTFail("pipelined SCRAM log-in failed") }
        XCTAssertTrue(outcome.downgradeProtected)
        XCTAssertEqual(outcome.mechanism, "SCRAM-SHA-1")
        XCTAssertEqual(outcome.boundJID?.description, "alice@localhost/xmpp-tools.1~a")
    }
}

extension HostilePeerTestCase {
    /// A peer that reads the header and `<starttls/>` before it sends anything, and after TLS the
    /// header and `<authenticate/>` before its features; `features` are the post-TLS ones.
    func pipelinedPeer(_ features: String, answer: @escaping (String) -> String) throws -> ScriptedPeer {
        let localhost = localhost!
        return try scriptedPeer {
            [.expect(PeerScript.starttlsEnd), .send(PeerScript.serverHeader + PeerScript.tlsFeatures + PeerScript.proceed),
             .startTLS(localhost),
             .reply(to: "</authenticate>") { text in PeerScript.serverHeader + features + answer(text) },
             .stall]
        }
    }
}
