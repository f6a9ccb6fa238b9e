import CryptoPrimitives
import XCTest
import XMLTree
import XMPPStanzas
@testable import XMPPConnection

/// The log-in that never waits (`PolledSetup`, the batch's per-account log-ins on its poll
/// loop) against the scripted peers of the blocking log-in's tests: the honest one logs in and
/// binds, and each hostile one ends in the error the blocking log-in gives for it.
final class HostilePolledLogInTests: HostilePeerTestCase {
    func testHonestPeerLogsInAndBinds() throws {
        let localhost = localhost!
        let peer = try scriptedPeer { PeerScript.login(localhost, password: Self.password, boundJID: "alice@localhost/x") }
        guard let (error, _) = runLogin(peer, polled: true) else { return }
        XCTAssertNil(error)
        guard let text = peer.transcript(0)?.text else { return XCTFail("the peer never finished") }
        XCTAssertEqual(text.components(separatedBy: "<stream:stream ").count - 1, 3, text)  // clear, TLS, after SASL
        XCTAssertTrue(text.contains("<bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'>"), text)
    }

    func testBindToAnotherDomainIsRefused() throws {
        let localhost = localhost!
        let peer = try scriptedPeer { PeerScript.login(localhost, password: Self.password, boundJID: "alice@evil.example/x") }
        guard let (error, _) = clientError(peer, polled: true) else { return }
        guard case .protocolViolation(let why) = error else { return XCTFail("\(error)") }
        XCTAssertTrue(why.contains("not to an account of localhost"), why)
    }

    private struct Case {
        var name: String
        var script: (_ identity: PeerTLSIdentity) -> [ScriptedPeer.Step]
        var expected: (ConnectionError) -> Bool
    }

    private static let failure = "<failure xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><not-authorized/></failure>"
    private static let handshakeAlert: [UInt8] = [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28]

    private static var cases: [Case] { [
        Case(name: "stream error before features", script: { _ in
            [.expect(PeerScript.clientHeaderEnd), .send(PeerScript.serverHeader + PeerScript.streamError("host-unknown"))]
        }, expected: { if case .stream(let e) = $0 { e.condition == "host-unknown" } else { false } }),
        Case(name: "stream error after STARTTLS", script: { identity in
            PeerScript.startTLS(identity)
                + [.expect(PeerScript.clientHeaderEnd), .send(PeerScript.serverHeader + PeerScript.streamError("policy-violation"))]
        }, expected: { if case .stream(let e) = $0 { e.condition == "policy-violation" } else { false } }),
        Case(name: "stream error during SASL", script: { identity in
            PeerScript.startTLS(identity) + PeerScript.open(PeerScript.saslFeatures(["SCRAM-SHA-1"]))
                + [.expect("</auth>"), .send(PeerScript.streamError("system-shutdown"))]
        }, expected: { if case .stream(let e) = $0 { e.condition == "system-shutdown" } else { false } }),
        Case(name: "stream error at bind", script: { identity in
            PeerScript.startTLS(identity) + PeerScript.scram(password: password)
                + PeerScript.bind { _ in PeerScript.streamError("conflict") }
        }, expected: { if case .stream(let e) = $0 { e.condition == "conflict" } else { false } }),
        Case(name: "password refused before the first challenge", script: { identity in
            PeerScript.startTLS(identity) + PeerScript.open(PeerScript.saslFeatures(["SCRAM-SHA-1"]))
                + [.expect("</auth>"), .send(failure), .stall]
        }, expected: { if case .authenticationFailed("not-authorized", nil) = $0 { true } else { false } }),
        Case(name: "no STARTTLS", script: { _ in PeerScript.open(PeerScript.saslFeatures(["PLAIN"])) + [.stall] },
             expected: { if case .tlsUnavailable = $0 { true } else { false } }),
        Case(name: "TLS alert mid-handshake", script: { _ in
            PeerScript.open(PeerScript.tlsFeatures)
                + [.expect(PeerScript.starttlsEnd), .send(PeerScript.proceed), .expect("\u{16}\u{03}"), .send(handshakeAlert), .stall]
        }, expected: { if case .tls(let why) = $0 { why.contains("handshake failure") } else { false } }),
        Case(name: "close right after proceed", script: { _ in
            PeerScript.open(PeerScript.tlsFeatures) + [.expect(PeerScript.starttlsEnd), .send(PeerScript.proceed), .close]
        }, expected: { if case .closedByPeer = $0 { true } else { false } }),
        Case(name: "server signature wrong in success", script: { identity in
            PeerScript.startTLS(identity) + PeerScript.scram(password: password) { _ in
                "<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>\(Base64.encode(Array("v=AAAA".utf8)))</success>"
            } + [.stall]
        }, expected: { if case .sasl = $0 { true } else { false } }),
        Case(name: "silence after the features", script: { identity in
            PeerScript.startTLS(identity) + PeerScript.open(PeerScript.saslFeatures(["SCRAM-SHA-1"])) + [.stall]
        }, expected: { if case .timedOut("waiting for the server") = $0 { true } else { false } }),
    ] }

    func testHostilePeersEndInTheBlockingLogInsErrors() throws {
        for c in Self.cases {
            let localhost = localhost!
            let peer = try scriptedPeer { c.script(localhost) }
            guard let (polled, _) = clientError(peer, timeout: .seconds(1), polled: true) else { continue }
            guard let (blocking, _) = clientError(peer, timeout: .seconds(1)) else { continue }
            XCTAssertTrue(c.expected(polled), "\(c.name): \(polled)")
            XCTAssertEqual(polled.description, blocking.description, c.name)
            peer.stop()
        }
    }

    func testUntrustedCertificateIsRejected() throws {
        caFile = try PeerCertificates.pair(for: "other-ca.example").certificate
        let localhost = localhost!
        let peer = try scriptedPeer { PeerScript.startTLS(localhost) + [.stall] }
        guard let (error, _) = clientError(peer, polled: true) else { return }
        guard case .certificateRejected(let why) = error else { return XCTFail("\(error)") }
        XCTAssertTrue(why.hasPrefix("self-signed certificate"), why)
    }
}
