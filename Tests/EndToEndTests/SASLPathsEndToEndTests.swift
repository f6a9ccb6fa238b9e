import Foundation
import XCTest

/// Every SASL path against a real server (issue 8): each test starts the server configuration
/// that offers the mechanism, logs in, and checks the mechanism the cached session reports.
final class SASLPathsEndToEndTests: XCTestCase {
    override func setUpWithError() throws {
        try TestServer.skipInLaterPasses("starts its own server for each mechanism")
    }

    private func loginMechanism(_ kind: String, _ options: [String], file: StaticString = #filePath, line: UInt = #line) throws -> (RunResult, String?) {
        let server = try TestServer.startPrivate(kind, options)
        defer { server.stop() }
        let t = try ToolRunner(server: server)
        let (jid, password) = try t.makeAccount("sasl")
        let login = try t.run("xmpp-login", [jid, "--json"] + t.serverArgs, password: password)
        guard login.status == 0 else { return (login, nil) }
        let status = try t.run("xmpp-login", ["status", "--json"])
        XCTAssertEqual(status.status, 0, status.stderr, file: file, line: line)
        let doc = try ToolRunner.json(status) as? [String: Any]
        return (login, doc?["mechanism"] as? String)
    }

    func testProsodySCRAMSHA1OnTLS13() throws {
        XCTAssertEqual(try loginMechanism("prosody", []).1, "SCRAM-SHA-1")
    }

    func testProsodySCRAMSHA1PlusWithTLSUniqueOnTLS12() throws {
        XCTAssertEqual(try loginMechanism("prosody", ["--tls12"]).1, "SCRAM-SHA-1-PLUS")
    }

    func testProsodySCRAMSHA256() throws {
        XCTAssertEqual(try loginMechanism("prosody", ["--hash", "sha256"]).1, "SCRAM-SHA-256")
    }

    func testProsodySCRAMSHA256PlusOnTLS12() throws {
        XCTAssertEqual(try loginMechanism("prosody", ["--hash", "sha256", "--tls12"]).1, "SCRAM-SHA-256-PLUS")
    }

    func testEjabberdSCRAMSHA512PlusWithTLSUnique() throws {
        XCTAssertEqual(try loginMechanism("ejabberd", ["--hash", "sha512", "--tls12"]).1, "SCRAM-SHA-512-PLUS")
    }

    func testEjabberdSCRAMSHA512OnTLS13WithoutBinding() throws {
        // ejabberd 23.01 offers -PLUS on TLS 1.3 but only knows tls-unique: the client must not use it.
        XCTAssertEqual(try loginMechanism("ejabberd", ["--hash", "sha512"]).1, "SCRAM-SHA-512")
    }

    func testPlainTextPasswordServerCannotCacheASession() throws {
        // With plain-text storage ejabberd salts every login anew: the tool must say so at login.
        let (login, mechanism) = try loginMechanism("ejabberd", ["--plain-passwords"])
        XCTAssertNil(mechanism)
        XCTAssertEqual(login.status, 3, login.stderr)
        XCTAssertTrue(login.stderr.contains("salts every login anew"), login.stderr)
    }
}
