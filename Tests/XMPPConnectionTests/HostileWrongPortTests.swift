import XCTest
import XMLTree
@testable import XMPPConnection

/// A user who points --server at the wrong kind of port gets a sentence naming it, not a
/// parser's or OpenSSL's complaint about the bytes.
final class HostileWrongPortTests: HostilePeerTestCase {
    private static let badRequest = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\nContent-Length: 11\r\n"
        + "Connection: close\r\n\r\n<html></html>"

    func testWebServerAnsweringTheStreamHeader() throws {
        let peer = try scriptedPeer { [.expect(PeerScript.clientHeaderEnd), .send(Self.badRequest), .close] }
        guard let (error, _) = clientError(peer) else { return }
        let sentence = "127.0.0.1:\(peer.port) answered HTTP, not XMPP: --server must name the server's XMPP client port "
            + "(usually 5222, or 5223 with --direct-tls), not a web port"
        guard case .wrongProtocol("127.0.0.1:\(peer.port)", .http) = error else { return XCTFail("\(error)") }
        let (line, _) = try assertTool(peer, exits: 6)
        XCTAssertEqual(line, "xmpp-login: " + sentence)
    }

    func testWebServerAnsweringTheClientHello() throws {
        let peer = try scriptedPeer { [.expect("\u{16}\u{03}"), .send(Self.badRequest), .close] }
        guard let (error, _) = clientError(peer, directTLS: true) else { return }
        guard case .wrongProtocol(_, .http) = error else { return XCTFail("\(error)") }
        XCTAssertTrue(error.description.hasPrefix("127.0.0.1:\(peer.port) answered HTTP, not XMPP"), error.description)
        try assertTool(peer, exits: 6, extraArguments: ["--direct-tls"])
    }

    /// A STARTTLS port answers a ClientHello with a plain-text stream error.
    func testDirectTLSToAStartTLSPort() throws {
        let peer = try scriptedPeer {
            [.expect("\u{16}\u{03}"), .send(PeerScript.serverHeader + PeerScript.streamError("not-well-formed")), .close]
        }
        guard let (error, _) = clientError(peer, directTLS: true) else { return }
        let sentence = "127.0.0.1:\(peer.port) answered in plain text, not TLS: it looks like a STARTTLS port; leave out --direct-tls"
        guard case .wrongProtocol("127.0.0.1:\(peer.port)", .xml) = error else { return XCTFail("\(error)") }
        let (line, _) = try assertTool(peer, exits: 6, extraArguments: ["--direct-tls"])
        XCTAssertEqual(line, "xmpp-login: " + sentence)
    }

    /// A direct-TLS port answers a stream header with a TLS alert.
    func testStreamHeaderToADirectTLSPort() throws {
        let alert: [UInt8] = [0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x32]
        let peer = try scriptedPeer { [.expect(PeerScript.clientHeaderEnd), .send(alert), .close] }
        guard let (error, _) = clientError(peer) else { return }
        let sentence = "127.0.0.1:\(peer.port) answered with TLS, not an XMPP stream: it looks like a direct-TLS port; add --direct-tls"
        guard case .wrongProtocol("127.0.0.1:\(peer.port)", .tls) = error else { return XCTFail("\(error)") }
        let (line, _) = try assertTool(peer, exits: 6)
        XCTAssertEqual(line, "xmpp-login: " + sentence)
    }

    /// Prosody's direct-TLS port closes on a stream header without sending anything.
    func testSilentCloseOfAPlainStream() throws {
        let peer = try scriptedPeer { [.expect(PeerScript.clientHeaderEnd), .close] }
        guard let (error, _) = clientError(peer) else { return }
        guard case .closedWithoutAnswer("127.0.0.1:\(peer.port)") = error else { return XCTFail("\(error)") }
        let (line, _) = try assertTool(peer, exits: 6)
        XCTAssertEqual(line, "xmpp-login: 127.0.0.1:\(peer.port) closed the connection without answering; "
                       + "if it is a direct-TLS port, add --direct-tls")
    }

    func testGreetingRecognition() {
        XCTAssertEqual(PeerGreeting(Array("HTTP/1.1 400 Bad Request".utf8)), .http)
        XCTAssertEqual(PeerGreeting([0x16, 0x03, 0x03, 0x00]), .tls)
        XCTAssertEqual(PeerGreeting([0x15, 0x03, 0x01]), .tls)
        XCTAssertEqual(PeerGreeting(Array("<?xml version='1.0'?>".utf8)), .xml)
        XCTAssertEqual(PeerGreeting(Array("\u{FEFF}\n <stream:stream".utf8)), .xml)
        XCTAssertNil(PeerGreeting(Array("HTTP".utf8)))
        XCTAssertNil(PeerGreeting(Array("SSH-2.0-OpenSSH".utf8)))
        XCTAssertNil(PeerGreeting([UInt8]()))
        XCTAssertFalse(PeerGreeting.xml.isMismatch(expectedTLS: false))
        XCTAssertFalse(PeerGreeting.tls.isMismatch(expectedTLS: true))
    }
}
