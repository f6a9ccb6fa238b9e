import Foundation
import XCTest

/// "A session that once used SCRAM or FAST never falls back to PLAIN silently" (issue 15, part
/// 5). A private Prosody stands in for a path where someone strips SCRAM from the offered
/// mechanisms: `disable_sasl_mechanisms` makes it offer PLAIN alone, as such an attacker would.
final class DowngradeEndToEndTests: XCTestCase {
    private static let scramOn = "authentication = \"internal_hashed\""
    private static let plainOnly = scramOn + "\ndisable_sasl_mechanisms = { \"DIGEST-MD5\"; \"SCRAM-SHA-1\"; \"SCRAM-SHA-1-PLUS\" }"

    private func offerPlainOnly(_ server: TestServer, _ on: Bool) throws {
        if on { try server.configure(replacing: Self.scramOn, with: Self.plainOnly) } else { try server.configure(replacing: Self.plainOnly, with: Self.scramOn) }
        try server.restart()
    }

    private func usedSCRAM(_ t: ToolRunner, _ jid: String) throws -> Bool? {
        let data = try Data(contentsOf: URL(fileURLWithPath: t.home + "/config/xmpp-tools/accounts.json"))
        let doc = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return ((doc?["accounts"] as? [String: Any])?[jid] as? [String: Any])?["used_scram"] as? Bool
    }

    func testAnAccountThatUsedSCRAMIsNeverDowngradedToPLAINSilently() throws {
        let server = try TestServer.startPrivate("prosody")
        defer { server.stop() }
        let keysHome = try ToolRunner(server: server), commandHome = try ToolRunner(server: server)
        let (keyed, keyedPassword) = try keysHome.makeAccount("dk")
        let (commanded, commandedPassword) = try commandHome.makeAccount("dc")
        XCTAssertEqual(try keysHome.run("xmpp-login", [keyed] + server.serverArgs, password: keyedPassword).status, 0)

        // A server offering PLAIN alone: the SCRAM-keys session is refused, and so is a new
        // login of that account, before the password is sent, naming the way forward.
        try offerPlainOnly(server, true)
        let stale = try keysHome.run("xmpp-roster", ["list"])
        XCTAssertEqual(stale.status, 3, stale.stderr)
        let command = try keysHome.passwordCommand(keyed, keyedPassword)
        let relogin = try keysHome.run("xmpp-login", [keyed, "--password-command", command, "--trace"])
        XCTAssertEqual(relogin.status, 3, relogin.stderr)
        XCTAssertTrue(relogin.stderr.contains("refusing a possible downgrade"), relogin.stderr)
        XCTAssertTrue(relogin.stderr.contains("xmpp-login \(keyed) --allow-plain"), relogin.stderr)
        XCTAssertFalse(relogin.stderr.contains("mechanism='PLAIN'"), "no PLAIN <auth/> was sent: \(relogin.stderr)")

        // An account that never used SCRAM may log in with PLAIN over TLS (a password command).
        let first = try commandHome.run("xmpp-login", [commanded, "--json", "--password-command",
                                                       try commandHome.passwordCommand(commanded, commandedPassword)] + server.serverArgs)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual((try ToolRunner.json(first) as? [String: Any])?["mechanism"] as? String, "PLAIN")
        XCTAssertEqual(try usedSCRAM(commandHome, commanded), false)

        // Once any tool of it authenticated with SCRAM, that is remembered ...
        try offerPlainOnly(server, false)
        let scram = try commandHome.run("xmpp-roster", ["list"])
        XCTAssertEqual(scram.status, 0, scram.stderr)
        XCTAssertEqual(try usedSCRAM(commandHome, commanded), true, "the SCRAM login is remembered")

        // ... so PLAIN alone is refused from then on, until the user accepts it.
        try offerPlainOnly(server, true)
        let refused = try commandHome.run("xmpp-roster", ["list"])
        XCTAssertEqual(refused.status, 3, "PLAIN after SCRAM must not be silent: \(refused.stderr)")
        XCTAssertTrue(refused.stderr.contains("--allow-plain"), refused.stderr)
        let noCommand = try commandHome.run("xmpp-login", [commanded, "--allow-plain"], password: commandedPassword)
        XCTAssertEqual(noCommand.status, 2, noCommand.stderr)
        let accepted = try commandHome.run("xmpp-login", [commanded, "--allow-plain", "--password-command",
                                                          try commandHome.passwordCommand(commanded, commandedPassword)])
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        XCTAssertEqual(try usedSCRAM(commandHome, commanded), false)
        XCTAssertEqual(try commandHome.run("xmpp-roster", ["list"]).status, 0)
    }
}

/// The normal path of downgrade protection on real servers: where the server sends an XEP-0474
/// hash the login checks it (and says so), and where it lists XEP-0440 channel-binding types the
/// login binds to one of them (tls-exporter on TLS 1.3, so a -PLUS mechanism).
final class DowngradeProtectionEndToEndTests: XCTestCase {
    func testTheServersHashAndChannelBindingTypesAreUsedWhereOffered() throws {
        let server = try TestServer.require()
        let t = try ToolRunner(server: server)
        let (jid, password) = try t.makeAccount("sd")
        for args in [t.serverArgs, ["--server", server.directTLSServer, "--direct-tls", "--ca-file", server.caFile]] {
            let r = try t.login(jid, password, ["--json"] + args)
            XCTAssertEqual(r.status, 0, r.stderr)
            let doc = try XCTUnwrap(try ToolRunner.json(r) as? [String: Any])
            XCTAssertEqual(doc["downgrade_protected"] as? Bool, server.has("ssdp"), "\(doc)")
            let mechanism = doc["mechanism"] as? String ?? ""
            if server.has("channel-binding-types") {
                XCTAssertTrue(mechanism.hasPrefix("SCRAM-") && mechanism.hasSuffix("-PLUS"), "bound to the listed type: \(doc)")
            }
        }
    }
}
