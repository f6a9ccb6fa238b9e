import Foundation
import XCTest
@testable import XMPPConnection
import Glibc

/// A loopback port that never completes a TCP handshake: a listener with a backlog of 0 whose
/// one queued connection is never accepted, so the kernel drops every further SYN (measured:
/// 10.255.255.1 is answered in this sandbox, a full backlog is not).
final class BlackholePort {
    let port: Int
    private let listener: Int32
    private let filler: Int32

    init() throws {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = listener
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, len) == 0 && listen(fd, 0) == 0 && getsockname(fd, sa, &len) == 0
            }
        }
        guard ok else { throw NSError(domain: "blackhole", code: Int(errno)) }
        port = Int(UInt16(bigEndian: addr.sin_port))
        filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let filled = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, len) == 0 }
        }
        guard filled else { throw NSError(domain: "blackhole", code: Int(errno)) }
    }

    deinit {
        close(filler)
        close(listener)
    }
}

/// Connection.open over several endpoints: an endpoint that never answers costs the connect
/// budget, not the whole `timeout`.
final class ConnectFailoverTests: HostilePeerTestCase {
    func testBlackholeIsReallyABlackhole() throws {
        let hole = try BlackholePort()
        let start = ContinuousClock.now
        var connecting = try Socket.Connecting(host: "127.0.0.1", port: hole.port)
        let socket = try connecting.nextStarted()
        XCTAssertFalse(try socket.wait(for: Int16(POLLOUT), until: .now + .seconds(1)), "the connect was answered")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(900))
    }

    func testUnansweredFirstEndpointCostsTheConnectBudgetOnly() throws {
        let hole = try BlackholePort()
        let identity = localhost!
        let peer = try scriptedPeer { PeerScript.startTLS(identity) + PeerScript.open(PeerScript.saslFeatures(["PLAIN"])) + [.stall] }
        var options = ConnectionOptions(domain: "localhost", serverHost: "127.0.0.1", serverPort: hole.port, timeout: .seconds(12))
        options.moreServers = [ServerAddress(host: "127.0.0.1", port: peer.port)]
        options.connectTimeout = .seconds(2)
        XCTAssertEqual(options.resolveEndpoints().map(\.port), [hole.port, peer.port])
        let start = ContinuousClock.now
        let connection = try Connection.open(options, tls: TLSContext(settings: TLSSettings(caFile: caFile)))
        let elapsed = ContinuousClock.now - start
        defer { connection.close() }
        XCTAssertEqual(connection.endpoint.port, peer.port)
        XCTAssertLessThan(elapsed, .seconds(5), "the blackholed first endpoint cost \(elapsed)")
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(1900))
    }

    func testTheLastEndpointKeepsTheWholeTimeout() throws {
        let hole = try BlackholePort()
        var options = ConnectionOptions(domain: "localhost", serverHost: "127.0.0.1", serverPort: hole.port, timeout: .seconds(3))
        options.connectTimeout = .seconds(1)
        let start = ContinuousClock.now
        XCTAssertThrowsError(try Connection.open(options, tls: TLSContext(settings: TLSSettings(caFile: caFile)))) { error in
            guard case ConnectionError.timedOut = error else { return XCTFail("\(error)") }
        }
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(2900))
    }
}
