import Foundation
import XCTest

/// xmpp-login against the real server.
final class LoginEndToEndTests: XCTestCase {
    func testLoginCachesSessionAndStatusNeedsNoPassword() throws {
        let (t, jid, password) = try ToolRunner.withAccount("li") { try $0.requireLoginAccounts() }
        // The SCRAM-keys kind; FAST sessions have their own tests (FASTSessionEndToEndTests).
        let login = try t.run("xmpp-login", [jid, "--json", "--session", "scram-keys"] + t.serverArgs, password: password)
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

    /// Several --server at log-in are remembered in order: later commands, given none, fail over
    /// past a dead first one as the log-in did (issue 27: exit 6 on the first).
    func testEveryServerOfTheLogInIsTriedLater() throws {
        let (t, jid, password) = try ToolRunner.withAccount("fo") { try $0.requireLoginAccounts() }
        // Port 1 on loopback: nothing listens, the connect is refused.
        let login = try t.run("xmpp-login", [jid, "--server", "127.0.0.1:1", "--server", t.server.server,
                                             "--ca-file", t.server.caFile], password: password)
        XCTAssertEqual(login.status, 0, login.stderr)
        let status = try t.run("xmpp-login", ["status", "--json"])
        XCTAssertEqual(status.status, 0, status.stderr)
        let doc = try XCTUnwrap(try ToolRunner.json(status) as? [String: Any])
        let remembered = try XCTUnwrap(doc["remembered"] as? [String: Any])
        XCTAssertEqual(remembered["servers"] as? [String], ["127.0.0.1:1", t.server.server])
        let roster = try t.run("xmpp-roster", ["list", "--no-presence"])
        XCTAssertEqual(roster.status, 0, roster.stderr)
    }

    func testWrongPasswordExitsThree() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (jid, _) = try t.makeAccount("wp")
        let r = try t.run("xmpp-login", [jid] + t.serverArgs, password: "wrong")
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertEqual(r.stderr, "xmpp-login: wrong password or unknown account for \(jid) (server: not-authorized)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: t.home + "/config/xmpp-tools/sessions/" + jid))
        let unknown = "nobody-\(ToolRunner.username())@\(t.server.domain)"
        let u = try t.run("xmpp-login", [unknown] + t.serverArgs, password: "wrong")
        XCTAssertEqual(u.status, 3, u.stderr)
        XCTAssertTrue(u.stderr.hasPrefix("xmpp-login: wrong password or unknown account for \(unknown) (server: "), u.stderr)
    }

    /// The server stores the SASLprep form of a password (NFKC: `Ⅸ` is `IX`, `²` is `2`), so
    /// the client must derive its SCRAM keys from the same form, or such a password never works.
    func testPasswordIsNormalizedAsTheServerStoresIt() throws {
        try TestServer.require().requireLoginAccounts()
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
        let (t, jid, password) = try ToolRunner.withAccount("pin")
        let pin = try Self.pin(of: t.server.caFile)
        try t.logIn(jid, password, ["--server", t.server.server, "--pin", pin])
        let bad = try ToolRunner(server: t.server).run(
            "xmpp-login", [jid, "--server", t.server.server, "--pin", "sha256/" + Data(count: 32).base64EncodedString()], password: password)
        XCTAssertEqual(bad.status, 7, bad.stderr)
    }

    func testInsecureWarnsLoudly() throws {
        let (t, jid, password) = try ToolRunner.withAccount("in")
        let r = try t.login(jid, password, ["--server", t.server.server, "--insecure"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("WARNING"), r.stderr)
    }

    func testDirectTLS() throws {
        let (t, jid, password) = try ToolRunner.withAccount("dt")
        try t.logIn(jid, password, t.directTLSArgs)
        let status = try t.run("xmpp-login", ["status", "--json"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains(String(t.server.tlsPort)), status.stdout)
    }

    func testListSwitchLogout() throws {
        let (t, a, pa) = try ToolRunner.withAccount("la")
        let (b, pb) = try t.makeAccount("lb")
        try t.logIn(a, pa)
        try t.logIn(b, pb)
        let list = try t.run("xmpp-login", ["list", "--json"])
        let items = try XCTUnwrap(try ToolRunner.json(list) as? [[String: Any]])
        XCTAssertEqual(Set(items.compactMap { $0["jid"] as? String }), [a, b])
        XCTAssertEqual(items.first { $0["active"] as? Bool == true }?["jid"] as? String, b)

        XCTAssertEqual(try t.run("xmpp-login", ["switch", a]).status, 0)
        XCTAssertTrue(try t.run("xmpp-login", ["status"]).stdout.contains(a))
        XCTAssertEqual(try t.run("xmpp-login", ["switch", "nobody@\(t.server.domain)"]).status, 3)

        let quiet = try t.run("xmpp-login", ["status", "-q"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stdout + quiet.stderr, "", "status -q is a silent check")
        XCTAssertEqual(try t.run("xmpp-login", ["logout", a]).status, 0)
        XCTAssertEqual(try t.run("xmpp-login", ["status", a]).status, 3)
        let gone = try t.run("xmpp-login", ["status", "-q", a])
        XCTAssertEqual(gone.status, 3)
        XCTAssertEqual(gone.stdout, "")
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
        XCTAssertTrue(r.stderr.hasSuffix("(is the server elsewhere? name it with --server HOST[:PORT])\n"), r.stderr)
    }

    func testNoPasswordSourceAndNoTerminalIsAUsageError() throws {
        let t = try ToolRunner(server: try TestServer.require())
        // setsid: a new session has no controlling terminal, so /dev/tty cannot be opened.
        let r = try Shell.run(["/usr/bin/setsid", "-w", Paths.binaries + "/xmpp-login", "x@\(t.server.domain)"] + t.serverArgs,
                              environment: t.environment)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stderr, "xmpp-login: no password given and no terminal to ask for one: use --password-file FILE, "
                       + "--password-stdin or XMPP_PASSWORD\n")
    }

    func testJIDWithoutDomainSaysToAddIt() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let r = try t.run("xmpp-login", ["alice"] + t.serverArgs, password: "x")
        XCTAssertEqual(r.status, 9, r.stderr)
        XCTAssertEqual(r.stderr, "xmpp-login: JID 'alice' has no domain: add @ and the server's domain, as in alice@example.org\n")
    }

    /// --direct-tls on the STARTTLS port, and its absence on the direct-TLS port, are named.
    func testWrongPortKindIsNamed() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (jid, password) = try t.makeAccount("wk")
        let direct = try t.run("xmpp-login", [jid, "--server", t.server.server, "--direct-tls", "--ca-file", t.server.caFile],
                               password: password)
        XCTAssertEqual(direct.status, 6, direct.stderr)
        XCTAssertEqual(direct.stderr, "xmpp-login: \(t.server.server) answered in plain text, not TLS: it looks like a STARTTLS "
                       + "port; leave out --direct-tls\n")
        let plain = try t.run("xmpp-login", [jid, "--server", t.server.directTLSServer, "--ca-file", t.server.caFile],
                              password: password)
        XCTAssertEqual(plain.status, 6, plain.stderr)
        XCTAssertTrue(plain.stderr.hasSuffix("if it is a direct-TLS port, add --direct-tls\n"), plain.stderr)
    }

    /// The case: after one --insecure login, a login with a wrong --pin must fail, and
    /// the wrong pin must not be saved.
    func testInsecureIsNotRememberedAndALaterWrongPinFails() throws {
        let (t, jid, password) = try ToolRunner.withAccount("ip")
        let insecure = try t.login(jid, password, ["--server", t.server.server, "--insecure"])
        XCTAssertEqual(insecure.status, 0, insecure.stderr)
        XCTAssertTrue(insecure.stderr.contains("--insecure is not remembered"), insecure.stderr)
        let accounts = t.home + "/config/xmpp-tools/accounts.json"
        XCTAssertFalse(try String(contentsOfFile: accounts, encoding: .utf8).contains("insecure"))
        let status = try t.run("xmpp-login", ["status"])
        XCTAssertEqual(status.status, 7, "the certificate is verified again: \(status.stderr)")

        let wrongPin = "sha256/" + Data(count: 32).base64EncodedString()
        let pinned = try t.login(jid, password, ["--pin", wrongPin])
        XCTAssertEqual(pinned.status, 7, pinned.stderr)
        XCTAssertFalse(try String(contentsOfFile: accounts, encoding: .utf8).contains(wrongPin))
        try t.logIn(jid, password, ["--pin", try Self.pin(of: t.server.caFile)])
        XCTAssertEqual(try t.run("xmpp-login", ["status"]).status, 0)
    }

    func testInsecureWithPinOrCAFileIsAUsageError() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let pin = try Self.pin(of: t.server.caFile)
        for extra in [["--pin", pin], ["--ca-file", t.server.caFile]] {
            let r = try t.run("xmpp-login", ["x@\(t.server.domain)", "--server", t.server.server, "--insecure"] + extra, password: "x")
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("xmpp-login: --insecure cannot be combined with \(extra[0])"), r.stderr)
        }
    }

    /// A remembered --direct-tls used to apply to a new --server on the STARTTLS port
    /// ("TLS failed: wrong version number").
    func testNewServerReplacesRememberedDirectTLS() throws {
        let (t, jid, password) = try ToolRunner.withAccount("rd")
        try t.logIn(jid, password, t.directTLSArgs)
        try t.logIn(jid, password, ["--server", t.server.server])
        let status = try t.run("xmpp-login", ["status", "--json"])
        XCTAssertEqual(status.status, 0, status.stderr)
        let doc = try XCTUnwrap(try ToolRunner.json(status) as? [String: Any])
        let remembered = try XCTUnwrap(doc["remembered"] as? [String: Any], "\(doc)")
        XCTAssertEqual(remembered["server"] as? String, t.server.server)
        XCTAssertEqual(remembered["direct_tls"] as? Bool, false)
        XCTAssertEqual(remembered["ca_file"] as? String, t.server.caFile, "the trust group was not given, so it is kept")
    }

    func testStatusShowsRememberedSettingsAndForgetSettingsClearsThem() throws {
        let (t, jid, password) = try ToolRunner.withAccount("fs")
        XCTAssertEqual(try t.login(jid, password, t.serverArgs).status, 0)
        let text = try t.run("xmpp-login", ["status"])
        XCTAssertTrue(text.stdout.contains("remembered: --server \(t.server.server) --ca-file \(t.server.caFile)\n"), text.stdout)
        let json = try XCTUnwrap(try ToolRunner.json(try t.run("xmpp-login", ["status", "--json"])) as? [String: Any])
        let remembered = try XCTUnwrap(json["remembered"] as? [String: Any])
        XCTAssertEqual(remembered["server"] as? String, t.server.server)
        XCTAssertEqual(remembered["ca_file"] as? String, t.server.caFile)
        XCTAssertTrue(remembered["pin"] is NSNull, "\(remembered)")
        XCTAssertEqual(remembered["direct_tls"] as? Bool, false)

        let forget = try t.run("xmpp-login", ["forget-settings", jid, "--json"])
        XCTAssertEqual(forget.status, 0, forget.stderr)
        let forgotten = try XCTUnwrap((try ToolRunner.json(forget) as? [String: Any])?["forgotten"] as? [String: Any])
        XCTAssertEqual(forgotten["server"] as? String, t.server.server)
        let list = try XCTUnwrap(try ToolRunner.json(try t.run("xmpp-login", ["list", "--json"])) as? [[String: Any]])
        XCTAssertTrue(list.first?["server"] is NSNull, "\(list)")
        XCTAssertTrue(list.first?["ca_file"] is NSNull, "\(list)")
        XCTAssertEqual(list.first?["session"] as? Bool, true, "the session stays")
        XCTAssertEqual(try t.run("xmpp-login", ["status"] + t.serverArgs).status, 0)

        let again = try t.run("xmpp-login", ["forget-settings"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "xmpp-login: \(jid) has no remembered connection settings\n")
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
