import XCTest
import XMLTree
@testable import XMPPConnection

/// Servers that send hostile or broken XML, or stop sending: each ends in a typed error,
/// promptly, and `xmpp-login` exits 6 (network) with one line.
final class HostileStreamTests: HostilePeerTestCase {
    /// The classic entity expansion bomb: ten levels of ten references.
    static let billionLaughs: String = {
        var dtd = "<?xml version='1.0'?><!DOCTYPE stream:stream [<!ENTITY lol0 'lol'>"
        for level in 1...9 {
            dtd += "<!ENTITY lol\(level) '" + String(repeating: "&lol\(level - 1);", count: 10) + "'>"
        }
        return dtd + "]>"
    }()

    func testBillionLaughsDoctypeIsRefused() throws {
        let header = PeerScript.serverHeader.replacingOccurrences(of: "<?xml version='1.0'?>", with: "")
        let peer = try scriptedPeer {
            [.expect(PeerScript.clientHeaderEnd), .send(Self.billionLaughs + header + "<stream:features>&lol9;</stream:features>"), .stall]
        }
        guard let (error, _) = clientError(peer) else { return }
        guard case .xml(.doctypeForbidden) = error else { return XCTFail("\(error)") }
        try assertTool(peer, exits: 6)
    }

    func testUndeclaredEntityReferenceIsRefused() throws {
        let peer = try scriptedPeer {
            PeerScript.open("<stream:features><x>&lol9;</x></stream:features>") + [.stall]
        }
        guard let (error, _) = clientError(peer) else { return }
        guard case .xml(.entityForbidden) = error else { return XCTFail("\(error)") }
    }

    func testEndlessStanzaHitsTheSizeLimit() throws {
        let peer = try scriptedPeer {
            PeerScript.open("<stream:features><x>") + [.flood(String(repeating: "a", count: 1024))]
        }
        guard let (error, _) = clientError(peer, limits: XMLLimits(maxStanzaBytes: 4096)) else { return }
        guard case .xml(.stanzaTooLarge(limit: 4096)) = error else { return XCTFail("\(error)") }
        // The tool runs with the default 1 MiB limit: it stops reading there too.
        try assertTool(peer, exits: 6)
    }

    func testEndlessNestingHitsTheDepthLimit() throws {
        let peer = try scriptedPeer { PeerScript.open("") + [.flood("<a>")] }
        guard let (error, _) = clientError(peer) else { return }
        guard case .xml(.tooDeep(limit: 64)) = error else { return XCTFail("\(error)") }
    }

    /// Asserts the client gave up after `timeout` (not before, and not much after).
    private func assertTimedOut(_ result: (ConnectionError, Duration)?, timeout: Duration, line: UInt = #line) {
        guard let (error, elapsed) = result else { return }
        guard case .timedOut = error else { return XCTFail("\(error)", line: line) }
        XCTAssertGreaterThanOrEqual(elapsed, timeout, line: line)
        XCTAssertLessThan(elapsed, timeout + .seconds(3), "took \(elapsed)", line: line)
    }

    func testServerThatStopsMidStanzaBeforeTLSTimesOut() throws {
        let peer = try scriptedPeer { PeerScript.open("<stream:features><starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'>") + [.stall] }
        assertTimedOut(clientError(peer, timeout: .seconds(1)), timeout: .seconds(1))
        let (_, elapsed) = try assertTool(peer, exits: 6, timeoutSeconds: 1)
        XCTAssertLessThan(elapsed, .seconds(4))
    }

    func testServerThatStopsMidStanzaAtBindTimesOut() throws {
        let localhost = localhost!
        let peer = try scriptedPeer {
            PeerScript.startTLS(localhost) + PeerScript.scram(password: Self.password)
                + PeerScript.bind { id in "<iq type='result' id='\(id)'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><jid>alice@local" }
                + [.stall]
        }
        assertTimedOut(clientError(peer, timeout: .seconds(1)), timeout: .seconds(1))
        let (_, elapsed) = try assertTool(peer, exits: 6, timeoutSeconds: 1)
        XCTAssertLessThan(elapsed, .seconds(4))
    }

    /// One byte every 200 ms never completes the features: the wait has one deadline, not one per byte.
    func testTricklingServerTimesOut() throws {
        let peer = try scriptedPeer {
            [.expect(PeerScript.clientHeaderEnd), .trickle(PeerScript.serverHeader + PeerScript.tlsFeatures, every: .milliseconds(200))]
        }
        assertTimedOut(clientError(peer, timeout: .seconds(1)), timeout: .seconds(1))
    }

    func testHTTPResponseInsteadOfXMLIsRefused() throws {
        let http = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nBad Request"
        let peer = try scriptedPeer { [.expect(PeerScript.clientHeaderEnd), .send(http), .stall] }
        guard let (error, elapsed) = clientError(peer) else { return }
        guard case .wrongProtocol(_, .http) = error else { return XCTFail("\(error)") }
        XCTAssertTrue(error.description.contains("answered HTTP, not XMPP"), error.description)
        XCTAssertLessThan(elapsed, .seconds(2), "refused at once, not after the timeout")
        try assertTool(peer, exits: 6)
    }

    func testHTMLPageInsteadOfAStreamIsRefused() throws {
        let peer = try scriptedPeer {
            [.expect(PeerScript.clientHeaderEnd), .send("<html><head><title>400</title></head><body>Bad Request</body></html>"), .stall]
        }
        guard let (error, _) = clientError(peer) else { return }
        guard case .protocolViolation(let why) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(why, "expected a stream header, got <html>")
    }

    func testBinaryGarbageIsRefused() throws {
        let garbage = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let peer = try scriptedPeer { [.expect(PeerScript.clientHeaderEnd), .send(garbage), .stall] }
        guard let (error, elapsed) = clientError(peer) else { return }
        guard case .xml = error else { return XCTFail("\(error)") }
        XCTAssertLessThan(elapsed, .seconds(2))
    }
}
