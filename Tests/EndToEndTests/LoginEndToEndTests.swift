import Foundation
import XCTest

/// xmpp-login against the real server.
final class LoginEndToEndTests: XCTestCase {
    func testLoginCachesSessionAndStatusNeedsNoPassword() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (jid, password) = try t.makeAccount("li")
        let login = try t.run("xmpp-login", [jid, "--json"] + t.serverArgs, password: password)
        XCTAssertEqual(login.status, 0, login.stderr)
        let doc = try XCTUnwrap(try ToolRunner.json(login) as? [String: Any])
        XCTAssertTrue((doc["mechanism"] as? String ?? "").hasPrefix("SCRAM-"), "\(doc)")

        let sessionPath = t.home + "/config/xmpp-tools/sessions/" + jid
        let attrs = try FileManager.default.attributesOfItem(atPath: sessionPath)
        XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let dirAttrs = try FileManager.default.attributesOfItem(atPath: t.home + "/config/xmpp-tools")
        XCTAssertEqual((dirAttrs[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        let session = try String(contentsOfFile: sessionPath, encoding: .utf8)
        XCTAssertFalse(session.contains(password))
        XCTAssertTrue(session.contains("client_key"))

        // No password, no flags: everything comes from the cache.
        let status = try t.run("xmpp-login", ["status", "--json"])
        XCTAssertEqual(status.status, 0, status.stderr)
        let s = try XCTUnwrap(try ToolRunner.json(status) as? [String: Any])
        XCTAssertEqual(s["jid"] as? String, jid)
        XCTAssertTrue((s["bound_jid"] as? String ?? "").hasPrefix(jid + "/xmpp-tools."), "\(s)")
        XCTAssertNotNil(s["tls_version"] as? String)
        XCTAssertEqual(s["active"] as? Bool, true)
    }

    func testWrongPasswordExitsThree() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (jid, _) = try t.makeAccount("wp")
        let r = try t.run("xmpp-login", [jid] + t.serverArgs, password: "wrong")
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("xmpp-login: "), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: t.home + "/config/xmpp-tools/sessions/" + jid))
    }

    /// The server stores the SASLprep form of a password (NFKC: `Ⅸ` is `IX`, `²` is `2`), so
    /// the client must derive its SCRAM keys from the same form, or such a password never works.
    func testPasswordIsNormalizedAsTheServerStoresIt() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let user = ToolRunner.username("nk")
        XCTAssertEqual(try t.run("xmpp-register", [t.jid(user)] + t.serverArgs, password: "\u{2168}-pass\u{00B2}").status, 0)
        let typed = try t.run("xmpp-login", [t.jid(user)] + t.serverArgs, password: "\u{2168}-pass\u{00B2}")
        XCTAssertEqual(typed.status, 0, typed.stderr)
        let prepared = try t.run("xmpp-login", [t.jid(user)] + t.serverArgs, password: "IX-pass2")
        XCTAssertEqual(prepared.status, 0, prepared.stderr)
    }

    func testNoSessionExitsThree() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let r = try t.run("xmpp-login", ["status"])
        XCTAssertEqual(r.status, 3, r.stderr)
    }

    func testUntrustedCertificateExitsSeven() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (jid, password) = try t.makeAccount("ca")
        let r = try t.run("xmpp-login", [jid, "--server", t.server.server], password: password)
        XCTAssertEqual(r.status, 7, r.stderr)
        XCTAssertTrue(r.stderr.contains("certificate"), r.stderr)
    }

    func testPinAloneTrustsSelfSignedServer() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (jid, password) = try t.makeAccount("pin")
        let pin = try Self.pin(of: t.server.caFile)
        let ok = try t.run("xmpp-login", [jid, "--server", t.server.server, "--pin", pin], password: password)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let bad = try ToolRunner(server: t.server).run(
            "xmpp-login", [jid, "--server", t.server.server, "--pin", "sha256/" + Data(count: 32).base64EncodedString()], password: password)
        XCTAssertEqual(bad.status, 7, bad.stderr)
    }

    func testInsecureWarnsLoudly() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (jid, password) = try t.makeAccount("in")
        let r = try t.run("xmpp-login", [jid, "--server", t.server.server, "--insecure"], password: password)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("WARNING"), r.stderr)
    }

    func testDirectTLS() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (jid, password) = try t.makeAccount("dt")
        let r = try t.run("xmpp-login", [jid, "--server", t.server.directTLSServer, "--direct-tls", "--ca-file", t.server.caFile],
                          password: password)
        XCTAssertEqual(r.status, 0, r.stderr)
        let status = try t.run("xmpp-login", ["status", "--json"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains(String(t.server.tlsPort)), status.stdout)
    }

    func testListSwitchLogout() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (a, pa) = try t.makeAccount("la")
        let (b, pb) = try t.makeAccount("lb")
        XCTAssertEqual(try t.run("xmpp-login", [a] + t.serverArgs, password: pa).status, 0)
        XCTAssertEqual(try t.run("xmpp-login", [b] + t.serverArgs, password: pb).status, 0)
        let list = try t.run("xmpp-login", ["list", "--json"])
        let items = try XCTUnwrap(try ToolRunner.json(list) as? [[String: Any]])
        XCTAssertEqual(Set(items.compactMap { $0["jid"] as? String }), [a, b])
        XCTAssertEqual(items.first { $0["active"] as? Bool == true }?["jid"] as? String, b)

        XCTAssertEqual(try t.run("xmpp-login", ["switch", a]).status, 0)
        XCTAssertTrue(try t.run("xmpp-login", ["status"]).stdout.contains(a))
        XCTAssertEqual(try t.run("xmpp-login", ["switch", "nobody@\(t.server.domain)"]).status, 3)

        XCTAssertEqual(try t.run("xmpp-login", ["logout", a]).status, 0)
        XCTAssertEqual(try t.run("xmpp-login", ["status", a]).status, 3)
        XCTAssertEqual(try t.run("xmpp-login", ["status", b]).status, 0)
        XCTAssertEqual(try t.run("xmpp-login", ["logout", "--all"]).status, 0)
        XCTAssertEqual(try t.run("xmpp-login", ["status", b]).status, 3)
    }

    func testSessionFileWithWideModeIsRefused() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (jid, _) = try t.makeAccount("md", login: true)
        let path = t.home + "/config/xmpp-tools/sessions/" + jid
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let r = try t.run("xmpp-login", ["status"])
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("644") && r.stderr.contains("chmod 600"), r.stderr)
    }

    func testServerDownExitsSix() throws {
        let t = try ToolRunner(server: try TestServer.require())
        // A port nothing listens on: take one from the kernel and close it again.
        let r = try t.run("xmpp-login", ["x@\(t.server.domain)", "--server", "127.0.0.1:1", "--ca-file", t.server.caFile],
                          password: "x")
        XCTAssertEqual(r.status, 6, r.stderr)
        XCTAssertTrue(r.stderr.contains("127.0.0.1"), r.stderr)
    }

    func testBadFlagExitsTwoWithSuggestion() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let r = try t.run("xmpp-login", ["status", "--jsno"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--json"), r.stderr)
    }

    /// `sha256/BASE64` of the certificate's SPKI, computed with the openssl CLI.
    static func pin(of certFile: String) throws -> String {
        let r = try Shell.run(["/bin/sh", "-c",
            "openssl x509 -in '\(certFile)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"])
        return "sha256/" + r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
