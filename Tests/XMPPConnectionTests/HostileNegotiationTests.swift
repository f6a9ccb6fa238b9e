import CryptoPrimitives
import XCTest
import XMLTree
import XMPPStanzas
@testable import XMPPConnection

/// Servers that break stream negotiation: stream errors at each step, no TLS, the wrong
/// certificate, TLS torn down mid-handshake. Each ends in its typed error and exit status.
final class HostileNegotiationTests: HostilePeerTestCase {
    private func assertStreamError(_ peer: ScriptedPeer, _ condition: String, text: String?, line: UInt = #line) {
        guard let (error, _) = clientError(peer, line: line) else { return }
        guard case .stream(let e) = error else { return XCTFail("\(error)", line: line) }
        XCTAssertEqual(e, StreamError(condition: condition, text: text), line: line)
    }

    func testStreamErrorBeforeFeatures() throws {
        let peer = try scriptedPeer {
            [.expect(PeerScript.clientHeaderEnd), .send(PeerScript.serverHeader + PeerScript.streamError("host-unknown"))]
        }
        assertStreamError(peer, "host-unknown", text: nil)
        try assertTool(peer, exits: 4)
    }

    func testStreamErrorAfterSTARTTLS() throws {
        let localhost = localhost!
        let peer = try scriptedPeer {
            PeerScript.startTLS(localhost)
                + [.expect(PeerScript.clientHeaderEnd), .send(PeerScript.serverHeader + PeerScript.streamError("policy-violation", text: "slow down"))]
        }
        assertStreamError(peer, "policy-violation", text: "slow down")
        try assertTool(peer, exits: 8)
    }

    func testStreamErrorDuringSASL() throws {
        let localhost = localhost!
        let peer = try scriptedPeer {
            PeerScript.startTLS(localhost) + PeerScript.open(PeerScript.saslFeatures(["SCRAM-SHA-1"]))
                + [.expect("</auth>"), .send(PeerScript.streamError("system-shutdown"))]
        }
        assertStreamError(peer, "system-shutdown", text: nil)
        try assertTool(peer, exits: 6)
    }

    func testStreamErrorAtBind() throws {
        let localhost = localhost!
        let peer = try scriptedPeer {
            PeerScript.startTLS(localhost) + PeerScript.scram(password: Self.password)
                + PeerScript.bind { _ in PeerScript.streamError("conflict", text: "Replaced by new connection") }
        }
        assertStreamError(peer, "conflict", text: "Replaced by new connection")
        try assertTool(peer, exits: 6)
    }

    func testPlainOnlyWithoutTLSIsRefusedAndThePasswordNeverSent() throws {
        let peer = try scriptedPeer { PeerScript.open(PeerScript.saslFeatures(["PLAIN"])) + [.stall] }
        guard let (error, _) = clientError(peer) else { return }
        guard case .tlsUnavailable = error else { return XCTFail("\(error)") }
        try assertTool(peer, exits: 7)
        for index in 0..<2 {
            guard let transcript = peer.transcript(index) else { return XCTFail("connection \(index) never finished") }
            let wire = String(decoding: transcript.wire, as: UTF8.self)
            let plain = Base64.encode(Array("\0alice\0\(Self.password)".utf8))
            XCTAssertFalse(wire.contains(Self.password), wire)
            XCTAssertFalse(wire.contains(plain), wire)
            XCTAssertFalse(wire.contains("<auth"), wire)
            XCTAssertTrue(wire.hasPrefix("<?xml version='1.0'?><stream:stream "), wire)
        }
    }

    func testCertificateForAnotherHostIsRejected() throws {
        let wrong = try PeerCertificates.pair(for: "wrong.example")
        let identity = try PeerTLSIdentity(certificate: wrong.certificate, key: wrong.key)
        caFile = wrong.certificate  // trusted as a CA, but not valid for "localhost"
        let peer = try scriptedPeer { PeerScript.startTLS(identity) + [.stall] }
        guard let (error, _) = clientError(peer) else { return }
        guard case .certificateRejected(let why) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(why, "hostname mismatch (expected a certificate for localhost)")
        let (line, _) = try assertTool(peer, exits: 7)
        XCTAssertEqual(line, "xmpp-login: server certificate rejected: hostname mismatch (expected a certificate for localhost)")
    }

    func testUntrustedCertificateIsRejected() throws {
        let other = try PeerCertificates.pair(for: "other-ca.example")
        caFile = other.certificate  // a CA that did not sign the peer's certificate
        let localhost = localhost!
        let peer = try scriptedPeer { PeerScript.startTLS(localhost) + [.stall] }
        guard let (error, _) = clientError(peer) else { return }
        guard case .certificateRejected(let why) = error else { return XCTFail("\(error)") }
        XCTAssertTrue(why.hasPrefix("self-signed certificate"), why)
        try assertTool(peer, exits: 7)
    }

    /// A fatal handshake_failure alert in answer to the ClientHello.
    func testTLSAlertMidHandshake() throws {
        let alert: [UInt8] = [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28]
        let peer = try scriptedPeer { PeerScript.proceedToTLS() + [.expect("\u{16}\u{03}"), .send(alert), .stall] }
        guard let (error, elapsed) = clientError(peer) else { return }
        guard case .tls(let why) = error else { return XCTFail("\(error)") }
        XCTAssertTrue(why.contains("handshake failure"), why)
        XCTAssertLessThan(elapsed, .seconds(2))
        try assertTool(peer, exits: 7)
    }

    /// A peer that says `<proceed/>` and then plays `afterProceed` is a server that closed the
    /// connection: found at once, exit 6.
    private func assertClosedByPeer(afterProceed steps: [ScriptedPeer.Step], line: UInt = #line) throws {
        let peer = try scriptedPeer { PeerScript.proceedToTLS() + steps }
        guard let (error, elapsed) = clientError(peer, line: line) else { return }
        guard case .closedByPeer = error else { return XCTFail("\(error)", line: line) }
        XCTAssertLessThan(elapsed, .seconds(2), line: line)
        try assertTool(peer, exits: 6, line: line)
    }

    /// Half a ServerHello record, then the connection closes.
    func testCloseMidHandshake() throws {
        let partial: [UInt8] = [0x16, 0x03, 0x03, 0x00, 0x7a, 0x02, 0x00, 0x00, 0x76, 0x03, 0x03]
        try assertClosedByPeer(afterProceed: [.expect("\u{16}\u{03}"), .send(partial), .close])
    }

    func testCloseRightAfterProceed() throws {
        try assertClosedByPeer(afterProceed: [.close])
    }

    /// The ClientHello arrives at a socket that is then closed unread: the kernel sends a reset,
    /// which must read as the server closing the connection, as the same reset does on a write.
    func testResetRightAfterProceed() throws {
        try assertClosedByPeer(afterProceed: [.resetWhenDataArrives])
    }
}
