import Foundation
import XCTest
import XMPPStanzas
@testable import XMPPBatch

/// Sync's state file: JSON lines (a header, then one account a line), and the first format (one
/// JSON document) still read and replaced by lines on the next save.
final class SyncStateFileTests: XCTestCase {
    /// A state as the first format wrote it (`xmpp-tools sync state 1`, pretty-printed).
    private static let firstFormat = """
        {
          "format": "xmpp-tools sync state 1",
          "domain": "x.org",
          "accounts": {
            "a1@x.org": {
              "standing": "active",
              "nickname": null,
              "fullname": "Ann \\"A\\" Ångström",
              "email": null,
              "avatar_sha256": "ab12",
              "contacts": [
                {
                  "jid": "t1@x.org",
                  "name": "Tess",
                  "groups": [
                    "Teachers",
                    "Staff"
                  ]
                }
              ],
              "note": null
            },
            "b2@x.org": {
              "standing": "disabled",
              "nickname": null,
              "fullname": null,
              "email": null,
              "avatar_sha256": null,
              "contacts": [],
              "note": "by sync on 2026-12-03"
            },
            "h@x.org": {
              "standing": "active",
              "nickname": null,
              "fullname": null,
              "email": null,
              "avatar_sha256": null,
              "contacts": [],
              "note": "adopted by sync on 2026-12-04",
              "without_password": true
            }
          }
        }

        """

    private func expected() throws -> SyncState {
        var state = SyncState(domain: "x.org")
        state.accounts["a1@x.org"] = SyncState.Account(fullname: "Ann \"A\" Ångström", avatar: "ab12",
                                                       contacts: [RosterItem(jid: try JID("t1@x.org"), name: "Tess", groups: ["Teachers", "Staff"])])
        state.accounts["b2@x.org"] = SyncState.Account(standing: .disabled, note: "by sync on 2026-12-03")
        state.accounts["h@x.org"] = SyncState.Account(note: "adopted by sync on 2026-12-04", withoutPassword: true)
        return state
    }

    private func writeState(_ text: String, in directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory + "/sync", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(directory, 0o700)
        let path = SyncState.path(domain: "x.org", stateDirectory: directory)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        return path
    }

    private func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func testAStateInTheFirstFormatIsReadAndTheNextSaveWritesLines() throws {
        let directory = try scratchDirectory("sync-state-migration")
        let path = try writeState(Self.firstFormat, in: directory)
        var state = try SyncState.load(domain: "x.org", stateDirectory: directory)
        XCTAssertEqual(state, try expected())
        state.accounts["c3@x.org"] = SyncState.Account(fullname: "Cy")
        try state.save(stateDirectory: directory)
        XCTAssertEqual(try lines(path), [
            #"{"format":"xmpp-tools sync state 2","domain":"x.org"}"#,
            #"{"jid":"a1@x.org","standing":"active","nickname":null,"fullname":"Ann \"A\" Ångström","email":null,"avatar_sha256":"ab12","#
                + #""contacts":[{"jid":"t1@x.org","name":"Tess","groups":["Teachers","Staff"]}],"note":null}"#,
            #"{"jid":"b2@x.org","standing":"disabled","nickname":null,"fullname":null,"email":null,"avatar_sha256":null,"contacts":[],"#
                + #""note":"by sync on 2026-12-03"}"#,
            #"{"jid":"c3@x.org","standing":"active","nickname":null,"fullname":"Cy","email":null,"avatar_sha256":null,"contacts":[],"note":null}"#,
            #"{"jid":"h@x.org","standing":"active","nickname":null,"fullname":null,"email":null,"avatar_sha256":null,"contacts":[],"#
                + #""note":"adopted by sync on 2026-12-04","without_password":true}"#,
        ])
        XCTAssertEqual(try SyncState.load(domain: "x.org", stateDirectory: directory), state)
    }

    /// The first format written on one line (as scripts do), longer than a header can be.
    func testAFirstFormatStateOnOneLongLineIsReadToo() throws {
        let directory = try scratchDirectory("sync-state-migration")
        let note = String(repeating: "n", count: 20_000)
        let compact = #"{"format":"xmpp-tools sync state 1","domain":"x.org","accounts":{"a@x.org":{"standing":"active","#
            + #""contacts":[],"note":"\#(note)"},"b@x.org":{"standing":"deleted"}}}"#
        _ = try writeState(compact, in: directory)
        var state = SyncState(domain: "x.org")
        state.accounts["a@x.org"] = SyncState.Account(note: note)
        state.accounts["b@x.org"] = SyncState.Account(standing: .deleted)
        XCTAssertEqual(try SyncState.load(domain: "x.org", stateDirectory: directory), state)
        try SyncState.noteDeletedOutside(try JID("a@x.org"), how: "by hand", stateDirectory: directory)
        state.accounts["a@x.org"] = SyncState.Account(standing: .deleted, note: "by hand")
        XCTAssertEqual(try SyncState.load(domain: "x.org", stateDirectory: directory), state)
        XCTAssertEqual(try lines(SyncState.path(domain: "x.org", stateDirectory: directory)).count, 3)
    }

    func testADeletionOutsideSyncMigratesAFirstFormatStateAndChangesOnlyItsLine() throws {
        let directory = try scratchDirectory("sync-state-migration")
        let path = try writeState(Self.firstFormat, in: directory)
        try SyncState.noteDeletedOutside(try JID("a1@x.org"), how: "by hand", stateDirectory: directory)
        var state = try expected()
        state.accounts["a1@x.org"] = SyncState.Account(standing: .deleted, fullname: "Ann \"A\" Ångström", avatar: "ab12", note: "by hand")
        XCTAssertEqual(try SyncState.load(domain: "x.org", stateDirectory: directory), state)
        let migrated = try lines(path)
        XCTAssertEqual(migrated.first, #"{"format":"xmpp-tools sync state 2","domain":"x.org"}"#)
        // In the line format the other lines are copied as they are.
        try SyncState.noteDeletedOutside(try JID("h@x.org"), how: "by hand too", stateDirectory: directory)
        let after = try lines(path)
        XCTAssertEqual(after.count, 4)
        XCTAssertEqual(after.filter { !$0.contains(#""jid":"h@x.org""#) }, migrated.filter { !$0.contains(#""jid":"h@x.org""#) })
        XCTAssertEqual(try SyncState.load(domain: "x.org", stateDirectory: directory).accounts["h@x.org"]?.note, "by hand too")
    }

    func testALineThatIsNotAnAccountIsRefusedByItsNumber() throws {
        let directory = try scratchDirectory("sync-state-lines")
        let header = #"{"format":"xmpp-tools sync state 2","domain":"x.org"}"#
        let good = #"{"jid":"a@x.org","standing":"active","contacts":[]}"#
        for (body, why) in [("\(good)\n{\"jid\":\"b@x.org\",\"standing\":\"gone\"}\n", "line 3: account b@x.org"),
                            ("\(good)\n{\"jid\":\"b@x.org\"\n", "line 3:"),
                            ("\(good)\n\(good)\n", "account a@x.org twice"),
                            ("{\"standing\":\"active\"}\n", "line 2: no jid")] {
            _ = try writeState(header + "\n" + body, in: directory)
            XCTAssertThrowsError(try SyncState.load(domain: "x.org", stateDirectory: directory)) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains("is not a sync state (") && text.contains(why), text)
                XCTAssertTrue(text.contains("move it away only if no sync manages x.org"), text)
            }
        }
        _ = try writeState(header + "\n" + good + "\n\n", in: directory)
        XCTAssertEqual(try SyncState.load(domain: "x.org", stateDirectory: directory).accounts.keys.sorted(), ["a@x.org"])
    }

    func testAStateFileThatIsASymlinkIsNeitherReadNorReplaced() throws {
        let directory = try scratchDirectory("sync-state-link")
        var state = try expected()
        try state.save(stateDirectory: directory)
        let path = SyncState.path(domain: "x.org", stateDirectory: directory)
        let elsewhere = directory + "/elsewhere.json"
        try FileManager.default.moveItem(atPath: path, toPath: elsewhere)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: elsewhere)
        XCTAssertThrowsError(try SyncState.load(domain: "x.org", stateDirectory: directory))
        state.accounts["z@x.org"] = SyncState.Account()
        XCTAssertThrowsError(try state.save(stateDirectory: directory))
        XCTAssertFalse(try String(contentsOfFile: elsewhere, encoding: .utf8).contains("z@x.org"))
    }
}
