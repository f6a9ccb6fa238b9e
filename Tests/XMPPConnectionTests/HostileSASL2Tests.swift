import CryptoPrimitives
import Foundation
import XCTest
import XMLTree
import XMPPStanzas
@testable import XMPPConnection

/// SASL2 (XEP-0388) with Bind 2 and FAST against scripted peers: the one-exchange log-in, token
/// authentication and its server proof, a revoked token, no fallback for a token, and XEP-0474
/// downgrade protection on both SASL paths.
final class HostileSASL2Tests: HostilePeerTestCase {
    static let token = "secret-token:fast-hostile-0123456789"
    static let userAgent = "d4565fa7-4d72-4749-b3d3-740edbf87770"
    static let boundJID = "alice@localhost/xmpp-tools.x~abc"

    static func sasl2Features(_ mechanisms: [String], fast: [String]? = ["HT-SHA-256-NONE"], legacy: [String] = []) -> String {
        // Built in steps: Swift 6.0's type checker gives up on this as one `+` chain.
        let list: ([String]) -> String = { $0.map { "<mechanism>\($0)</mechanism>" }.joined() }
        let fastElement = fast.map { "<fast xmlns='urn:xmpp:fast:0'>" + list($0) + "</fast>" } ?? ""
        let legacyElement = legacy.isEmpty ? "" : "<mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>" + list(legacy) + "</mechanisms>"
        return "<stream:features><authentication xmlns='urn:xmpp:sasl:2'>" + list(mechanisms)
            + "<inline><bind xmlns='urn:xmpp:bind:0'/>" + fastElement + "</inline></authentication>"
            + legacyElement + "</stream:features>"
    }

    static let postAuthFeatures = "<stream:features><ver xmlns='urn:xmpp:features:rosterver'/></stream:features>"

    static func ssdpHash(_ mechanisms: [String]) -> String {
        Base64.encode(Crypto.hash(.sha1, SSDP.hashInput(mechanisms: mechanisms, channelBindingTypes: nil)))
    }

    /// SCRAM-SHA-1 over SASL2; `h` is put into server-first when given; success carries Bind 2's
    /// `<bound/>` and a token.
    static func sasl2SCRAM(password: String, h: String? = nil) -> [ScriptedPeer.Step] {
        let server = SCRAMServerBox(password: password)
        if let h { server.scram.serverFirstExtension = ",h=" + h }
        return [
            .reply(to: "</authenticate>") { text in
                let first = (try? server.scram.respond(toClientFirst: Base64.decode(PeerScript.payload(of: "initial-response", in: text)) ?? [])) ?? []
                return "<challenge xmlns='urn:xmpp:sasl:2'>\(Base64.encode(first))</challenge>"
            },
            .reply(to: "</response>") { text in
                let final = (try? server.scram.respond(toClientFinal: Base64.decode(PeerScript.payload(of: "response", in: text)) ?? [])) ?? []
                return "<success xmlns='urn:xmpp:sasl:2'><additional-data>\(Base64.encode(final))</additional-data>"
                    + "<authorization-identifier>\(boundJID)</authorization-identifier><bound xmlns='urn:xmpp:bind:0'/>"
                    + "<token xmlns='urn:xmpp:fast:0' expiry='2030-01-01T00:00:00Z' token='\(token)'/></success>" + postAuthFeatures
            },
        ]
    }

    /// `request` against `peer` (account alice@localhost) through both drivers of the
    /// connection engine, each on its own thread under the overall deadline.
    func run(_ peer: ScriptedPeer, _ request: LoginRequest, file: StaticString = #filePath, line: UInt = #line)
        -> Result<LoginOutcome, ConnectionError>? {
        let options = ConnectionOptions(domain: "localhost", serverHost: "127.0.0.1", serverPort: peer.port, timeout: .seconds(5),
                                        account: "alice@localhost")
        return runBothDrivers(peer, options: options, request: request, file: file, line: line)
    }

    static let passwordLogIn = LoginRequest(username: "alice", credential: .password(password), usedSCRAMBefore: false,
                                            requireSCRAM: true, userAgentID: userAgent, requestToken: true)

    static let tokenLogIn = LoginRequest(username: "alice", credential: .token(FASTMechanism(hash: .sha256, binding: nil), secret: token),
                                         usedSCRAMBefore: true, userAgentID: userAgent, bind: false)

    func testPasswordLogInAuthenticatesBindsAndGetsATokenInOneStream() throws {
        let localhost = localhost!
        let mechanisms = ["SCRAM-SHA-1", "PLAIN"]
        let peer = try scriptedPeer {
            PeerScript.startTLS(localhost) + PeerScript.open(Self.sasl2Features(mechanisms))
                + Self.sasl2SCRAM(password: Self.password, h: Self.ssdpHash(mechanisms)) + [.stall]
        }
        let result = run(peer, Self.passwordLogIn)
        guard case .success(let outcome)? = result else { return XCTFail("log-in failed: \(String(describing: result))") }
        XCTAssertTrue(outcome.usedSASL2)
        XCTAssertTrue(outcome.downgradeProtected)
        XCTAssertEqual(outcome.mechanism, "SCRAM-SHA-1")
        XCTAssertEqual(outcome.boundJID?.description, Self.boundJID)
        XCTAssertNotNil(outcome.keys)
        XCTAssertEqual(outcome.token?.token.secret, Self.token)
        XCTAssertEqual(outcome.token?.mechanism.name, "HT-SHA-256-NONE")
        peer.stop()
        let text = peer.transcript(0)?.text ?? ""
        // Two stream headers (before and after TLS), none after authentication, and no bind IQ.
        XCTAssertEqual(text.components(separatedBy: "<stream:stream ").count - 1, 2, text)
        XCTAssertFalse(text.contains("<iq"), text)
        // from= names the account only on the stream under TLS.
        let headers = text.components(separatedBy: "<stream:stream ").dropFirst()
        XCTAssertFalse(headers.first?.hasPrefix("xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' to='localhost' from=") ?? true)
        XCTAssertTrue(headers.last?.contains("from='alice@localhost'") ?? false, text)
        XCTAssertTrue(text.contains("<request-token xmlns='urn:xmpp:fast:0' mechanism='HT-SHA-256-NONE'/>"), text)
        XCTAssertTrue(text.contains("<user-agent id='\(Self.userAgent)'>"), text)
    }

    /// A token authentication is one element and one answer; the server must prove it knows the token.
    func testTokenLogInIsOneExchangeAndChecksTheServersProof() throws {
        let localhost = localhost!
        let mechanism = FASTMechanism(hash: .sha256, binding: nil)
        for tamper in [false, true] {
            let peer = try scriptedPeer {
                PeerScript.startTLS(localhost) + PeerScript.open(Self.sasl2Features(["SCRAM-SHA-1"])) + [
                    .reply(to: "</authenticate>") { text in
                        let given = Base64.decode(PeerScript.payload(of: "initial-response", in: text)) ?? []
                        let expected = mechanism.initialResponse(username: "alice", token: Self.token, channelBindingData: [])
                        guard given == expected else {
                            return "<failure xmlns='urn:xmpp:sasl:2'><not-authorized xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/></failure>"
                        }
                        var proof = mechanism.expectedResponse(token: Self.token, channelBindingData: [])
                        if tamper { proof[0] ^= 1 }
                        return "<success xmlns='urn:xmpp:sasl:2'><additional-data>\(Base64.encode(proof))</additional-data>"
                            + "<authorization-identifier>\(Self.boundJID)</authorization-identifier><bound xmlns='urn:xmpp:bind:0'/></success>"
                            + Self.postAuthFeatures
                    },
                    .stall,
                ]
            }
            let result = run(peer, Self.tokenLogIn)
            if tamper {
                guard case .failure(.sasl(.fastResponseMismatch))? = result else { return XCTFail("\(String(describing: result))") }
            } else {
                guard case .success(let outcome)? = result else { return XCTFail("\(String(describing: result))") }
                XCTAssertEqual(outcome.mechanism, "HT-SHA-256-NONE")
                XCTAssertNil(outcome.keys)
            }
            peer.stop()
            let text = peer.transcript(0)?.text ?? ""
            XCTAssertTrue(text.contains("<fast xmlns='urn:xmpp:fast:0'/>"), text)
            XCTAssertFalse(text.contains("<response"), text)
            // The token's user agent is shared by every tool of the account: no Bind 2 with it.
            XCTAssertFalse(text.contains("urn:xmpp:bind:0"), text)
        }
    }

    /// A revoked or wrong token is the server's rejection of the session (exit status 3).
    func testRevokedTokenIsAnAuthenticationRejection() throws {
        let localhost = localhost!
        let peer = try scriptedPeer {
            PeerScript.startTLS(localhost) + PeerScript.open(Self.sasl2Features(["SCRAM-SHA-1"])) + [
                .reply(to: "</authenticate>") { _ in
                    "<failure xmlns='urn:xmpp:sasl:2'><credentials-expired xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/></failure>"
                },
                .stall,
            ]
        }
        guard case .failure(let error)? = run(peer, Self.tokenLogIn) else { return XCTFail("a revoked token authenticated") }
        guard case .authenticationFailed(condition: "credentials-expired", text: nil) = error else { return XCTFail("\(error)") }
        XCTAssertTrue(error.isAuthRejection)
    }

    /// A token has nothing to fall back to: without SASL2 or without its mechanism, nothing is sent.
    func testTokenNeverFallsBackWhenFASTIsMissing() throws {
        let localhost = localhost!
        for features in [PeerScript.saslFeatures(["SCRAM-SHA-1", "PLAIN"]), Self.sasl2Features(["PLAIN"], fast: nil),
                         Self.sasl2Features(["PLAIN"], fast: ["HT-SHA-256-EXPR"])] {
            let peer = try scriptedPeer { PeerScript.startTLS(localhost) + PeerScript.open(features) + [.stall] }
            guard case .failure(.sasl(.fastMechanismUnavailable("HT-SHA-256-NONE")))? = run(peer, Self.tokenLogIn) else {
                return XCTFail("expected fastMechanismUnavailable with \(features)")
            }
            peer.stop()
            let text = peer.transcript(0)?.text ?? ""
            XCTAssertFalse(text.contains("<auth") || text.contains("<authenticate"), text)
        }
    }

    /// XEP-0474 over SASL2: a hash of other mechanisms than offered stops the exchange before the proof.
    func testSSDPMismatchIsRefusedOverSASL2() throws {
        let localhost = localhost!
        let peer = try scriptedPeer {
            PeerScript.startTLS(localhost) + PeerScript.open(Self.sasl2Features(["SCRAM-SHA-1", "PLAIN"]))
                + Self.sasl2SCRAM(password: Self.password, h: Self.ssdpHash(["SCRAM-SHA-1", "SCRAM-SHA-1-PLUS", "PLAIN"])) + [.stall]
        }
        guard case .failure(.sasl(.downgradeDetected))? = run(peer, Self.passwordLogIn) else { return XCTFail("SSDP mismatch accepted") }
        XCTAssertFalse(peer.transcript(0)?.text.contains("<response") ?? true)
        let (line, _) = try assertTool(peer, exits: 3)
        XCTAssertTrue(line.contains("XEP-0474"), line)
    }

    /// XEP-0474 over RFC 6120 SASL: the same check on the legacy path.
    func testSSDPMismatchIsRefusedOverLegacySASL() throws {
        let localhost = localhost!
        let peer = try scriptedPeer {
            let server = SCRAMServerBox(password: Self.password)
            server.scram.serverFirstExtension = ",h=" + Self.ssdpHash(["SCRAM-SHA-1", "SCRAM-SHA-256", "PLAIN"])
            return PeerScript.startTLS(localhost) + PeerScript.open(PeerScript.saslFeatures(["SCRAM-SHA-1", "PLAIN"])) + [
                .reply(to: "</auth>") { text in
                    let first = (try? server.scram.respond(toClientFirst: Base64.decode(PeerScript.payload(of: "auth", in: text)) ?? [])) ?? []
                    return "<challenge xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>\(Base64.encode(first))</challenge>"
                },
                .stall,
            ]
        }
        guard let (error, _) = clientError(peer) else { return }
        guard case .sasl(.downgradeDetected) = error else { return XCTFail("\(error)") }
        let (line, _) = try assertTool(peer, exits: 3)
        XCTAssertTrue(line.contains("XEP-0474"), line)
    }
}

/// Hands a log-in result from the client thread to the test thread.
final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private let ready = DispatchSemaphore(value: 0)
    private var stored: Result<LoginOutcome, ConnectionError>?

    func set(_ value: Result<LoginOutcome, ConnectionError>) {
        lock.lock()
        stored = value
        lock.unlock()
        ready.signal()
    }

    func wait(_ limit: Duration) -> Result<LoginOutcome, ConnectionError>? {
        guard ready.wait(timeout: .now() + .seconds(Int(limit.components.seconds))) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
