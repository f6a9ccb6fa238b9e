import Foundation
import XCTest

/// `watch` answers IQ requests from others: anything it does not handle gets service-unavailable
/// (never silence), and a "roster push" from someone other than the account is refused, not applied.
/// The other side is a raw client (`RawStanzaClient`'s log-in, then one IQ).
final class RosterRawClientEndToEndTests: XCTestCase {
    static let client = #"""
    import sys
    host, port, ca, jid, password, target, payload = sys.argv[1:8]
    """# + "\n" + RawStanzaClient.loginPrelude + "\n" + #"""
    s.sendall(("<iq type='set' id='probe1' to='%s'>%s</iq>" % (target, payload)).encode())
    reply = until(s, "<iq[^>]*id=['\"]probe1['\"].*?</iq>|<iq[^>]*id=['\"]probe1['\"][^>]*/>")
    print(re.search("<iq[^>]*id=['\"]probe1['\"].*?(</iq>|/>)", reply, re.S).group(0))
    s.sendall(b"</stream:stream>")
    """#

    private func sendIq(_ w: RosterWorld, from account: (String, String), to target: String, payload: String) throws -> RunResult {
        let args = w.serverArgs
        let hostPort = args[args.firstIndex(of: "--server")! + 1]
        let ca = args[args.firstIndex(of: "--ca-file")! + 1]
        let colon = hostPort.lastIndex(of: ":")!
        return try Shell.run(["/usr/bin/python3", "-c", Self.client, String(hostPort[..<colon]), String(hostPort[hostPort.index(after: colon)...]),
                              ca, account.0, account.1, target, payload], timeout: 30)
    }

    func testUnhandledRequestsGetServiceUnavailable() throws {
        try TestServer.require().require("rfc6121-roster", "the expected roster and subscription states are RFC 6121's")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("no /usr/bin/python3") }
        let w = try RosterWorld()
        let alice = try w.account("ia")
        let mallory = try w.accountWithPassword("im")
        let watcher = try w.watch(alice, ["--trace"])
        let bound = try XCTUnwrap(try watcher.waitFor { $0["event"] as? String == "online" }["jid"] as? String)

        let disco = try sendIq(w, from: mallory, to: bound, payload: "<query xmlns='http://jabber.org/protocol/disco#info'/>")
        XCTAssertEqual(disco.status, 0, disco.stderr)
        XCTAssertTrue(disco.stdout.contains("type='error'") || disco.stdout.contains("type=\"error\""), disco.stdout)
        XCTAssertTrue(disco.stdout.contains("service-unavailable"), disco.stdout)
        XCTAssertTrue(watcher.stderr.contains("SEND <iq id='probe1' type='error'"), "the watcher itself answered: \(watcher.stderr)")

        // A forged roster push from another account is refused and changes nothing.
        let forged = try sendIq(w, from: mallory, to: bound,
                                payload: "<query xmlns='jabber:iq:roster'><item jid='evil@localhost' name='Evil'/></query>")
        XCTAssertTrue(forged.stdout.contains("service-unavailable"), forged.stdout)
        XCTAssertEqual(watcher.stop(SIGTERM), 0)
        XCTAssertFalse(watcher.events.contains { $0["event"] as? String == "roster_push" }, "\(watcher.events)")
        XCTAssertNil(try w.contacts(alice, ["--cached"])["evil@localhost"])
    }
}
