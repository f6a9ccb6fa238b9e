import Foundation
import XCTest
import XMPPStanzas
import XMPPStorage

/// Session files of each kind: what is written, and that older files still read as SCRAM keys.
final class SessionKindTests: XCTestCase {
    var root: String!

    override func setUpWithError() throws { root = try scratchDirectory("kind", created: false) }

    func testAFileWithoutAKindHoldsSCRAMKeys() throws {
        let old = #"{"jid":"a@b.c","mechanism":"SCRAM-SHA-1","hash":"SHA-1","salt":"c2FsdA==","iterations":4096,"client_key":"Y2s=","server_key":"c2s=","created":1}"#
        let session = try StoredSession(fileBytes: Array(old.utf8))
        XCTAssertEqual(session.kind, .scramKeys)
        XCTAssertNil(session.passwordCommand)
        XCTAssertEqual(session.salt, "c2FsdA==")
        XCTAssertFalse(session.sasl2, "an older file pipelines nothing")
    }

    /// `sasl2` (the keys last went over SASL2, so the next log-in pipelines `<authenticate/>`)
    /// is written only when true, so files of servers without SASL2 look as before.
    func testSASL2IsKeptWhenTrueAndLeftOutWhenFalse() throws {
        let paths = try Paths(environment: ["HOME": root])
        let store = SessionStore(paths: paths)
        let jid = try JID("bot@example.org")
        var session = StoredSession(jid: jid, mechanism: "SCRAM-SHA-1-PLUS", hash: "SHA-1", salt: "c2FsdA==", iterations: 4096,
                                    clientKey: "Y2s=", serverKey: "c2s=", created: 1, sasl2: true)
        try store.save(session)
        XCTAssertEqual(try store.load(jid), session)
        let file = URL(fileURLWithPath: paths.sessionFile("bot@example.org"))
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        XCTAssertEqual(object["sasl2"] as? Bool, true)
        session.sasl2 = false
        try store.save(session)
        object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        XCTAssertNil(object["sasl2"])
        XCTAssertEqual(try store.load(jid), session)
    }

    func testAPasswordCommandSessionHoldsTheCommandAndNoKeys() throws {
        let paths = try Paths(environment: ["HOME": root])
        let store = SessionStore(paths: paths)
        let jid = try JID("bot@example.org")
        let session = StoredSession(jid: jid, passwordCommand: "pass show xmpp/bot", created: 7)
        try store.save(session)
        XCTAssertEqual(try store.load(jid), session)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: paths.sessionFile("bot@example.org"))))
            as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["jid", "kind", "password_command", "created"])
        XCTAssertEqual(object["kind"] as? String, "password-command")
        XCTAssertEqual(object["password_command"] as? String, "pass show xmpp/bot")
    }

    func testAPasswordCommandSessionWithoutACommandIsCorrupt() throws {
        let paths = try Paths(environment: ["HOME": root])
        let store = SessionStore(paths: paths)
        let jid = try JID("bot@example.org")
        try store.save(StoredSession(jid: jid, passwordCommand: "x", created: 0))
        let path = paths.sessionFile("bot@example.org")
        try Data(#"{"jid":"bot@example.org","kind":"password-command","created":0}"#.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try store.load(jid)) { XCTAssertEqual($0 as? StorageError, .corrupt(path: path, reason: "not a session file (no password command)")) }
    }

    func testKindNamesAreTheStableOnes() {
        XCTAssertEqual(SessionKind.allCases.map(\.rawValue), ["scram-keys", "password-command"])
    }

    /// Files written by the earlier builds (Foundation's JSONEncoder, pretty, sorted keys, " : ")
    /// read as they did; what is written now reads back the same.
    func testFilesOfEarlierBuildsStillReadAndNewOnesRoundTrip() throws {
        let paths = try Paths(environment: ["HOME": root])
        let sessions = SessionStore(paths: paths)
        let jid = try JID("bot@example.org")
        try sessions.save(StoredSession(jid: jid, passwordCommand: "x", created: 0))  // makes the 0700 directory
        let fastPath = paths.sessionFile("bot@example.org")
        let fast = """
        {
          "created" : 1700000000,
          "expiry" : "2027-01-01T00:00:00Z",
          "jid" : "bot@example.org",
          "kind" : "fast",
          "mechanism" : "HT-SHA-256-NONE",
          "token" : "dG9rZW4=",
          "user_agent_id" : "d8a0c6a4-2c38-4b4c-9c8e-1a2b3c4d5e6f"
        }

        """
        try Data(fast.utf8).write(to: URL(fileURLWithPath: fastPath))
        guard case .fast(let token)? = try sessions.loadCached(jid) else { return XCTFail("not read as FAST") }
        XCTAssertEqual(token.token, "dG9rZW4=")
        XCTAssertNil(token.rotated)
        var rotated = token
        rotated.rotated = 1700000100
        try sessions.save(rotated)
        XCTAssertEqual(try sessions.loadCached(jid), .fast(rotated))

        let accounts = AccountStore(paths: paths)
        let old = """
        {
          "accounts" : {
            "bot@example.org" : {
              "direct_tls" : false,
              "port" : 5222,
              "server" : "xmpp.example.org",
              "used_scram" : true
            }
          },
          "active" : "bot@example.org"
        }

        """
        try Data(old.utf8).write(to: URL(fileURLWithPath: paths.accountsFile))
        let file = try accounts.load()
        XCTAssertEqual(file, AccountsFile(active: "bot@example.org",
                                          accounts: ["bot@example.org": AccountSettings(server: "xmpp.example.org", port: 5222, usedSCRAM: true)]))
        try accounts.save(file)
        XCTAssertEqual(try accounts.load(), file)

        try Data(#"{"accounts": {"a@b": {"port": "5222"}}}"#.utf8).write(to: URL(fileURLWithPath: paths.accountsFile))
        XCTAssertThrowsError(try accounts.load()) {
            XCTAssertEqual($0 as? StorageError, .corrupt(path: paths.accountsFile, reason: "not valid accounts JSON (port is not an integer)"))
        }
    }
}
