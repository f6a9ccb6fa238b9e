import Foundation
import XCTest
import XMPPStanzas
import XMPPStorage

/// Paths, private atomic files, sessions and accounts.
final class CredentialStoreTests: XCTestCase {
    var root: String!

    override func setUpWithError() throws { root = try scratchDirectory("store", created: false) }

    func testXDGPathsAndFallbacks() throws {
        let xdg = try Paths(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_CACHE_HOME": "relative"])
        XCTAssertEqual(xdg.config, "/c/xmpp-tools")
        XCTAssertEqual(xdg.cache, "/h/.cache/xmpp-tools", "relative XDG values are ignored, as the spec says")
        XCTAssertEqual(xdg.state, "/h/.local/state/xmpp-tools")
        XCTAssertEqual(xdg.sessionFile("a@b.c"), "/c/xmpp-tools/sessions/a@b.c")
        XCTAssertThrowsError(try Paths(environment: [:])) { XCTAssertEqual($0 as? StorageError, .noHome) }
    }

    func testSessionSavedPrivateAndReadBack() throws {
        let paths = try Paths(environment: ["HOME": root])
        let store = SessionStore(paths: paths)
        let jid = try JID("alice@example.org")
        let session = StoredSession(jid: jid, mechanism: "SCRAM-SHA-1", hash: "SHA-1", salt: "c2FsdA==", iterations: 4096,
                                    clientKey: "Y2s=", serverKey: "c2s=", created: 1)
        try store.save(session)
        XCTAssertEqual(try store.load(jid), session)
        let file = paths.sessionFile("alice@example.org")
        XCTAssertEqual(try mode(file), 0o600)
        XCTAssertEqual(try mode(paths.config), 0o700)
        XCTAssertEqual(try mode(paths.sessionsDirectory), 0o700)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: paths.sessionsDirectory)
        XCTAssertEqual(leftovers, ["alice@example.org"], "no temporary files remain")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(text.contains("\"client_key\""))
        try store.remove(jid)
        XCTAssertNil(try store.load(jid))
        XCTAssertNoThrow(try store.remove(jid), "removing twice is fine")
    }

    func testWideSessionFileIsRefused() throws {
        let paths = try Paths(environment: ["HOME": root])
        let store = SessionStore(paths: paths)
        let jid = try JID("bob@example.org")
        try store.save(StoredSession(jid: jid, mechanism: "SCRAM-SHA-1", hash: "SHA-1", salt: "", iterations: 1,
                                     clientKey: "", serverKey: "", created: 0))
        chmod(paths.sessionFile("bob@example.org"), 0o640)
        XCTAssertThrowsError(try store.load(jid)) {
            XCTAssertEqual($0 as? StorageError, .insecurePermissions(path: paths.sessionFile("bob@example.org"), mode: 0o640))
        }
    }

    func testCorruptSessionFileIsReported() throws {
        let paths = try Paths(environment: ["HOME": root])
        try SecureFile.makeDirectory(paths.sessionsDirectory)
        try SecureFile.write(Array("not json".utf8), to: paths.sessionFile("c@example.org"))
        XCTAssertThrowsError(try SessionStore(paths: paths).load(try JID("c@example.org"))) {
            guard case .corrupt? = $0 as? StorageError else { return XCTFail("\($0)") }
        }
    }

    func testAccountsUpdateIsAtomicAndKeepsOthers() throws {
        let store = AccountStore(paths: try Paths(environment: ["HOME": root]))
        XCTAssertEqual(try store.load(), AccountsFile())
        try store.update { $0.accounts["a@x"] = AccountSettings(server: "h", port: 5, directTLS: true); $0.active = "a@x" }
        try store.update { $0.accounts["b@x"] = AccountSettings(pin: "sha256/x") }
        let file = try store.load()
        XCTAssertEqual(file.active, "a@x")
        XCTAssertEqual(file.accounts["a@x"]?.port, 5)
        XCTAssertEqual(file.accounts["a@x"]?.directTLS, true)
        XCTAssertEqual(file.accounts["b@x"]?.pin, "sha256/x")
        let json = try String(contentsOfFile: root + "/.config/xmpp-tools/accounts.json", encoding: .utf8)
        XCTAssertTrue(json.contains("\"direct_tls\": true"), json)
    }

    private func mode(_ path: String) throws -> Int {
        let attrs = try FileManager.default.attributesOfItem(atPath: path)
        return (attrs[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
