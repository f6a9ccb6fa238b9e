import CryptoPrimitives
import XCTest
import XMLTree
@testable import XMPPConnection

/// Servers that cannot prove they know the password: authentication must fail (exit 3) and the
/// client must not go on to restart the stream or bind.
final class HostileSASLTests: HostilePeerTestCase {
    /// The honest version of the scripts below logs in, so their failures are the hostility's doing.
    func testHonestPeerLogsIn() throws {
        let localhost = localhost!
        let peer = try scriptedPeer { PeerScript.login(localhost, password: Self.password, boundJID: "alice@localhost/x") }
        guard let (error, _) = runLogin(peer) else { return }
        XCTAssertNil(error)
        guard let transcript = peer.transcript(0) else { return XCTFail("the peer never finished") }
        XCTAssertNil(transcript.endedEarly.flatMap { $0 == "client closed the connection" ? nil : $0 })
        XCTAssertTrue(transcript.text.hasSuffix("</stream:stream>"), transcript.text)
    }

    /// `v=` with one bit of the genuine signature flipped.
    private static func tampered(_ genuine: String) -> String {
        var signature = Base64.decode(genuine.dropFirst(2)) ?? []
        if !signature.isEmpty { signature[0] ^= 0x01 }
        return "v=" + Base64.encode(signature)
    }

    /// A peer that runs SCRAM up to the server-final-message and sends `serverFinal(genuine)` in
    /// its place, then stalls.
    private func peerEndingSCRAM(with serverFinal: @escaping (String) -> String) throws -> ScriptedPeer {
        let localhost = localhost!
        return try scriptedPeer {
            PeerScript.startTLS(localhost) + PeerScript.scram(password: Self.password, serverFinal: serverFinal) + [.stall]
        }
    }

    /// The client stopped after SASL: no stream restart and no bind after the server's answer.
    private func assertStoppedAfterSASL(_ peer: ScriptedPeer, connection: Int, line: UInt = #line) {
        guard let text = peer.transcript(connection)?.text else { return XCTFail("the peer never finished", line: line) }
        XCTAssertEqual(text.components(separatedBy: "<stream:stream ").count - 1, 2, text, line: line)
        XCTAssertFalse(text.contains("<iq"), text, line: line)
    }

    func testWrongServerSignatureInSuccessFailsAuthentication() throws {
        let peer = try peerEndingSCRAM { genuine in
            "<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>\(Base64.encode(Array(Self.tampered(genuine).utf8)))</success>"
        }
        guard let (error, _) = clientError(peer) else { return }
        guard case .sasl(.serverSignatureMismatch) = error else { return XCTFail("\(error)") }
        assertStoppedAfterSASL(peer, connection: 0)
        let (line, _) = try assertTool(peer, exits: 3)
        XCTAssertEqual(line, "xmpp-login: authentication failed: the server's SCRAM signature is wrong: it may not be the real server")
        assertStoppedAfterSASL(peer, connection: 1)
    }

    /// RFC 6120 §6.3.10 lets the server send server-final in a challenge; a wrong one there must
    /// fail before the client answers it.
    func testWrongServerSignatureInChallengeFailsAuthentication() throws {
        let peer = try peerEndingSCRAM { genuine in
            "<challenge xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>\(Base64.encode(Array(Self.tampered(genuine).utf8)))</challenge>"
        }
        guard let (error, _) = clientError(peer) else { return }
        guard case .sasl(.serverSignatureMismatch) = error else { return XCTFail("\(error)") }
        let text = peer.transcript(0)?.text ?? ""
        XCTAssertEqual(text.components(separatedBy: "<response").count - 1, 1, "answered the bad challenge: \(text)")
        assertStoppedAfterSASL(peer, connection: 0)
        try assertTool(peer, exits: 3)
    }

    func testSuccessWithoutServerFinalFailsAuthentication() throws {
        let peer = try peerEndingSCRAM { _ in
            "<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>"
        }
        guard let (error, _) = clientError(peer) else { return }
        guard case .sasl(.malformedServerMessage("empty server-final-message")) = error else { return XCTFail("\(error)") }
        assertStoppedAfterSASL(peer, connection: 0)
        try assertTool(peer, exits: 3)
    }

    func testServerErrorInServerFinalFailsAuthentication() throws {
        let peer = try peerEndingSCRAM { _ in
            "<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>\(Base64.encode(Array("e=invalid-proof".utf8)))</success>"
        }
        guard let (error, _) = clientError(peer) else { return }
        guard case .sasl(.serverError("invalid-proof")) = error else { return XCTFail("\(error)") }
        try assertTool(peer, exits: 3)
    }

    /// xmpp-login needs SCRAM keys: on a server offering only PLAIN it must refuse before sending
    /// anything, not send the password and refuse afterwards.
    func testPlainOnlyServerNeverGetsThePasswordFromLogin() throws {
        let localhost = localhost!
        let peer = try scriptedPeer { PeerScript.startTLS(localhost) + PeerScript.open(PeerScript.saslFeatures(["PLAIN"])) + [.stall] }
        guard let (error, _) = clientError(peer, requireSCRAM: true) else { return }
        guard case .sasl(.scramRequired(offered: ["PLAIN"])) = error else { return XCTFail("\(error)") }
        let (line, _) = try assertTool(peer, exits: 3)
        XCTAssertEqual(line, "xmpp-login: localhost offers no SCRAM mechanism; a session cannot be cached without storing "
                       + "the password, which this tool never does (the password was not sent); log in with --password-command "
                       + "'COMMAND' (such as 'pass show xmpp/alice' or 'secret-tool lookup xmpp alice@localhost') to have every "
                       + "tool ask that password manager instead")
        for index in 0..<2 {
            guard let text = peer.transcript(index)?.text else { return XCTFail("connection \(index) never finished") }
            XCTAssertFalse(text.contains("<auth"), text)
            XCTAssertFalse(text.contains(Self.password), text)
            XCTAssertFalse(text.contains(Base64.encode(Array("\0alice\0\(Self.password)".utf8))), text)
        }
    }

    /// A server asking for 10,000,000 PBKDF2 iterations (about 10 s of CPU here) is refused at
    /// once, before any derivation.
    func testHugeIterationCountIsRefusedQuickly() throws {
        let localhost = localhost!
        let peer = try scriptedPeer {
            PeerScript.startTLS(localhost) + PeerScript.open(PeerScript.saslFeatures(["SCRAM-SHA-512"])) + [
                .reply(to: "</auth>") { text in
                    let first = String(decoding: Base64.decode(PeerScript.payload(of: "auth", in: text)) ?? [], as: UTF8.self)
                    let nonce = first.components(separatedBy: "r=").last ?? ""
                    let serverFirst = "r=\(nonce)srv,s=\(Base64.encode(Array("salt".utf8))),i=10000000"
                    return "<challenge xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>\(Base64.encode(Array(serverFirst.utf8)))</challenge>"
                },
                .stall,
            ]
        }
        guard let (error, elapsed) = clientError(peer) else { return }
        guard case .sasl(.iterationCountTooHigh(10_000_000)) = error else { return XCTFail("\(error)") }
        XCTAssertLessThan(elapsed, .seconds(1))
        let (line, toolElapsed) = try assertTool(peer, exits: 3)
        XCTAssertEqual(line, "xmpp-login: authentication failed: the server asks for 10000000 SCRAM iterations, more than the "
                       + "600000 this client computes (refused so a server cannot burn this machine's CPU)")
        XCTAssertLessThan(toolElapsed, .seconds(2))
    }
}
