import Foundation
import XCTest

/// A cached session's log-in pipelines (DESIGN-NOTES "Sessions"): `<starttls/>` rides with the
/// first stream header, and the header after TLS with an `<authenticate/>` made for the offer the
/// session remembers; where the server's features no longer match, it connects again the usual
/// way. Round trips are counted from `--trace` as the turns from sending to receiving.
final class PipelinedSessionEndToEndTests: XCTestCase {
    private func sessionPath(_ t: ToolRunner, _ jid: String) -> String { t.home + "/config/xmpp-tools/sessions/" + jid }

    /// The `--trace` lines of one run, SEND and RECV only.
    private func trace(_ r: RunResult) -> [String] {
        r.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("SEND ") || $0.hasPrefix("RECV ") }
    }

    /// How often the client waited for the server: each run of SEND lines followed by a RECV.
    private func exchanges(_ lines: [String]) -> Int {
        var count = 0
        var sending = false
        for line in lines {
            if line.hasPrefix("SEND ") { sending = true } else if sending { count += 1; sending = false }
        }
        return count
    }

    private func session(_ t: ToolRunner, _ jid: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sessionPath(t, jid)))) as? [String: Any])
    }

    private func write(_ doc: [String: Any], _ t: ToolRunner, _ jid: String) throws {
        let data = try JSONSerialization.data(withJSONObject: doc)
        XCTAssertTrue(FileManager.default.createFile(atPath: sessionPath(t, jid), contents: data, attributes: [.posixPermissions: 0o600]))
        _ = chmod(sessionPath(t, jid), 0o600)
    }

    private func scramKeysAccount(_ prefix: String) throws -> (ToolRunner, String) {
        let (t, jid, _) = try ToolRunner.withAccount(prefix, session: "scram-keys") { try $0.requireLoginAccounts() }
        return (t, jid)
    }

    /// A FAST status: STARTTLS, then the token with Bind 2, so two waits after TCP (and TLS);
    /// unpipelined it was five (features, proceed, features, success, bind).
    func testFASTStatusWaitsTwiceAfterConnecting() throws {
        let (t, _, _) = try ToolRunner.withAccount("pf", session: "fast") { try $0.require("fast", "FAST tokens") }
        let r = try t.run("xmpp-login", ["status", "--trace", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = trace(r)
        XCTAssertEqual(exchanges(lines), 2, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.count > 1 && lines[1].hasPrefix("SEND <starttls"), lines.joined(separator: "\n"))
        XCTAssertFalse(lines.contains { $0.hasPrefix("SEND <iq") }, "bound by Bind 2, no RFC 6120 bind")
        // Rotation still lands in the file: the next run authenticates with what was stored.
        XCTAssertEqual(try t.run("xmpp-login", ["status", "-q"]).status, 0)
    }

    /// Cached keys over SASL2: STARTTLS, then client-first with the header, then client-final.
    func testSCRAMKeysStatusWaitsThreeTimesOverSASL2() throws {
        let (t, jid) = try scramKeysAccount("ps")
        try t.server.require("sasl2", "SASL2")
        XCTAssertEqual(try session(t, jid)["sasl2"] as? Bool, true, "the login remembers SASL2")
        let r = try t.run("xmpp-login", ["status", "--trace", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(exchanges(trace(r)), 3, trace(r).joined(separator: "\n"))
    }

    /// Without SASL2 only STARTTLS is pipelined: six waits (features+proceed, features,
    /// challenge, success, features after the restart, bind), one fewer than before.
    func testSCRAMKeysStatusWithoutSASL2PipelinesOnlySTARTTLS() throws {
        let (t, jid) = try scramKeysAccount("pl")
        guard !t.server.has("sasl2") else { throw XCTSkip("\(t.server.kind) offers SASL2") }
        XCTAssertNil(try session(t, jid)["sasl2"])
        let r = try t.run("xmpp-login", ["status", "--trace", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = trace(r)
        XCTAssertTrue(lines.count > 1 && lines[1].hasPrefix("SEND <starttls"), lines.joined(separator: "\n"))
        XCTAssertEqual(exchanges(lines), 6, lines.joined(separator: "\n"))
    }

    /// The remembered mechanism no longer what the features lead to (here the file says
    /// SCRAM without -PLUS where the server offers -PLUS, which sent as is would be refused as
    /// a downgrade): the stream is given up, a second one logs in, and the file is corrected.
    func testARememberedMechanismThatNoLongerFitsFallsBackAndIsCorrected() throws {
        let (t, jid) = try scramKeysAccount("pm")
        try t.server.require("sasl2", "SASL2")
        var doc = try session(t, jid)
        let mechanism = doc["mechanism"] as? String ?? ""
        guard mechanism.hasSuffix("-PLUS") else { throw XCTSkip("\(t.server.kind) gave \(mechanism), no -PLUS") }
        doc["mechanism"] = String(mechanism.dropLast(5))
        try write(doc, t, jid)
        let r = try t.run("xmpp-login", ["status", "--trace", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let authenticates = trace(r).filter { $0.hasPrefix("SEND <authenticate") }
        XCTAssertEqual(authenticates.count, 2, trace(r).joined(separator: "\n"))
        XCTAssertEqual(try session(t, jid)["mechanism"] as? String, mechanism)
        let again = try t.run("xmpp-login", ["status", "--trace", "-q"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(exchanges(trace(again)), 3, "pipelined again")
    }

    /// A file that remembers SASL2 on a server without it: the pipelined stream is given up,
    /// RFC 6120 SASL logs in, and the file forgets SASL2.
    func testRememberedSASL2OnAServerWithoutItFallsBack() throws {
        let (t, jid) = try scramKeysAccount("pn")
        guard !t.server.has("sasl2") else { throw XCTSkip("\(t.server.kind) offers SASL2") }
        var doc = try session(t, jid)
        doc["sasl2"] = true
        try write(doc, t, jid)
        let r = try t.run("xmpp-login", ["status", "--trace", "-q"], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(trace(r).filter { $0.hasPrefix("SEND <authenticate") }.count, 1, trace(r).joined(separator: "\n"))
        XCTAssertNil(try session(t, jid)["sasl2"])
    }

    /// A FAST session where the server offers no FAST (any more): the pipelined stream is given
    /// up and the usual one says why, exit 3, without waiting out a timeout.
    func testFASTSessionWithoutFASTOnTheServerIsRefusedCleanly() throws {
        let (t, jid) = try scramKeysAccount("px")
        guard !t.server.has("fast") else { throw XCTSkip("\(t.server.kind) offers FAST") }
        try write(["kind": "fast", "jid": jid, "mechanism": "HT-SHA-256-NONE", "token": "secret-token:forged",
                   "expiry": "2099-01-01T00:00:00Z", "user_agent_id": UUID().uuidString.lowercased(), "created": 1], t, jid)
        let started = Date()
        let r = try t.run("xmpp-login", ["status", "--trace"], timeout: 30)
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "no timeout waited out")
        XCTAssertTrue(r.stderr.contains("HT-SHA-256-NONE"), r.stderr)
    }
}
