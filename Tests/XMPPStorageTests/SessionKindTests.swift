import Foundation
import XCTest
import XMPPStanzas
import XMPPStorage

/// Session files of each kind: what is written, and that older files still read as SCRAM keys.
final class SessionKindTests: XCTestCase {
    var root: String!

    override func setUpWithError() throws { root = NSTemporaryDirectory() + "xt-kind-" + UUID().uuidString }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    func testAFileWithoutAKindHoldsSCRAMKeys() throws {
        let old = #"{"jid":"a@b.c","mechanism":"SCRAM-SHA-1","hash":"SHA-1","salt":"c2FsdA==","iterations":4096,"client_key":"Y2s=","server_key":"c2s=","created":1}"#
        let session = try JSONDecoder().decode(StoredSession.self, from: Data(old.utf8))
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
        XCTAssertThrowsError(try store.load(jid)) { XCTAssertEqual($0 as? StorageError, .corrupt(path: path, reason: "not a session file")) }
    }

    func testKindNamesAreTheStableOnes() {
        XCTAssertEqual(SessionKind.allCases.map(\.rawValue), ["scram-keys", "password-command"])
    }
}
