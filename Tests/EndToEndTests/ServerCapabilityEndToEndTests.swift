import Foundation
import XCTest

/// What the tools do where servers differ, decided by the server's XT_FEATURES (scripts/README.md
/// lists them per kind): on a server with the feature the normal path works; on one without it
/// the tool copes or says plainly what the server lacks.
final class ServerCapabilityEndToEndTests: XCTestCase {
    /// Writes a CSV of `count` new accounts with passwords; returns its path and the JIDs.
    private func csv(_ t: ToolRunner, _ count: Int) throws -> (String, [String]) {
        let tag = ToolRunner.username("p")
        let jids = (1...count).map { t.jid("\(tag)x\($0)") }
        let text = "jid,password\n" + jids.map { "\($0),pw-\($0)" }.joined(separator: "\n") + "\n"
        let path = t.home + "/pipelined.csv"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (path, jids)
    }

    /// jabberd2 2.7 creates every account of several pipelined registrations but answers only
    /// some (measured: the first and the last of 12). Batch notices the skipped answers, sends
    /// the rest one at a time and confirms the skipped rows by logging in, instead of waiting
    /// out its 15 s timeout for answers that never come.
    func testBatchStopsPipeliningWhenTheServerSkipsAnswers() throws {
        let server = try TestServer.require()
        try server.require("register", "batch registers in-band")
        try server.require("register-unthrottled", "12 accounts from one address at once")
        let t = try ToolRunner(server: server)
        let (path, jids) = try csv(t, 12)
        let started = Date()
        let r = try t.run("xmpp-register", ["batch", path, "--jobs", "1", "--json"] + t.serverArgs)
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(r.status, 0, r.stderr)
        let statuses = try BatchEndToEndTests.statuses(r)
        XCTAssertEqual(statuses, Dictionary(uniqueKeysWithValues: (2...13).map { ($0, "created") }), r.stderr)
        XCTAssertLessThan(seconds, 15, "no request waited out the 15 s timeout: \(r.stderr)")
        let note = "sending one registration at a time"
        if server.has("register-pipelining") {
            XCTAssertFalse(r.stderr.contains(note), r.stderr)
        } else {
            XCTAssertTrue(r.stderr.contains(note), r.stderr)
        }
        // Every account exists with its CSV password.
        let again = try t.run("xmpp-register", ["batch", path, "--jobs", "1", "--json"] + t.serverArgs)
        XCTAssertEqual(Set(try BatchEndToEndTests.statuses(again).values), ["exists"], again.stderr)
        XCTAssertEqual(jids.count, 12)
    }

    /// A server that stores plain-text passwords (ejabberd's default, jabberd2) salts every
    /// SCRAM login anew: the login works, but the tool says a session cannot be cached.
    func testLoginWithoutStoredSCRAMHashesSaysNoSessionCanBeCached() throws {
        let server = try TestServer.require()
        let t = try ToolRunner(server: server)
        let user = ToolRunner.username("scram")
        let password = "pw-" + UUID().uuidString
        try server.provision(t, user, password)
        let r = try t.run("xmpp-login", [t.jid(user)] + t.serverArgs, password: password)
        if server.has("scram-session") {
            XCTAssertEqual(r.status, 0, r.stderr)
        } else {
            XCTAssertEqual(r.status, 3, r.stderr)
            XCTAssertTrue(r.stderr.contains("salts every login anew"), r.stderr)
            XCTAssertTrue(r.stderr.contains("its SCRAM keys cannot be cached"), r.stderr)
            XCTAssertTrue(r.stderr.contains("--password-command"), "the refusal names the way forward: \(r.stderr)")
        }
    }

    /// ejabberd's default registration_timeout (600 s) refuses a second account from the same
    /// address: the tool says the server limits registrations and to try later (exit 8).
    func testRegistrationLimitPerAddressIsSaidPlainly() throws {
        let server = try TestServer.require()
        try server.require("register", "in-band registration")
        let t = try ToolRunner(server: server)
        var statuses: [Int32] = []
        var last = ""
        for _ in 0..<2 {
            let r = try t.run("xmpp-register", [t.jid(ToolRunner.username("lim"))] + t.serverArgs, password: "pw-" + UUID().uuidString)
            statuses.append(r.status)
            last = r.stderr
        }
        if server.has("register-unthrottled") {
            XCTAssertEqual(statuses, [0, 0], last)
        } else {
            // The first may already be refused: another test of this run registered before.
            XCTAssertEqual(statuses.last, 11, last)
            XCTAssertTrue(last.contains("limits how often accounts can be created"), last)
            XCTAssertTrue(last.contains("try again later"), last)
        }
    }

    /// `xmpp-register --avatar` on a server without PEP (jabberd2) stores FN, NICKNAME, EMAIL and
    /// PHOTO in the vCard: it says what was stored and what the server lacks, and succeeds, as
    /// `xmpp-avatar set` does there; with PEP it says nothing.
    func testRegisterProfileSaysWhatWasStoredWhereThereIsNoPEP() throws {
        let server = try TestServer.require()
        try server.require("register", "in-band registration")
        try server.require("register-unthrottled", "a fresh account")
        let t = try ToolRunner(server: server)
        let image = t.home + "/face.png"
        try TestPNG.rgb(width: 120, height: 80, seed: 3).write(to: URL(fileURLWithPath: image))
        let jid = t.jid(ToolRunner.username("nopep"))
        let password = "pw-" + UUID().uuidString
        let r = try t.run("xmpp-register", [jid, "--fullname", "Ann Other", "--nickname", "ann", "--email", "ann@example.org",
                                            "--avatar", image] + t.serverArgs, password: password)
        XCTAssertEqual(r.status, 0, r.stderr)
        if server.has("avatar-pep") {
            XCTAssertEqual(r.stderr, "")
        } else {
            XCTAssertEqual(r.stderr, "xmpp-register: the server has no PEP (feature-not-implemented), so the avatar is only in the vCard; stored in the vCard: FN, NICKNAME, EMAIL and PHOTO\n")
        }
        let card = try RawXMPP.vCard(server, jid: jid, password: password)
        XCTAssertEqual(card.child("FN")?.text, "Ann Other")
        XCTAssertEqual(card.child("NICKNAME")?.text, "ann")
        XCTAssertNotNil(card.child("PHOTO")?.child("BINVAL"), "the avatar is in the vCard")
    }

    /// `xmpp-avatar` on any server: `set` stores the image where it can (PEP and the vCard, or
    /// the vCard alone, saying so where PEP is missing), and another account gets the same bytes.
    func testAvatarSetAndGetWorkWithOrWithoutPEP() throws {
        let server = try TestServer.require()
        let owner = try ToolRunner(server: server), reader = try ToolRunner(server: server)
        let (jid, _) = try owner.makeAccount("ao", login: true)
        _ = try reader.makeAccount("ar", login: true)
        let image = owner.home + "/face.png"
        try TestPNG.rgb(width: 120, height: 80, seed: 5).write(to: URL(fileURLWithPath: image))
        let set = try owner.run("xmpp-avatar", ["set", image, "--json"])
        XCTAssertEqual(set.status, 0, set.stderr)
        let doc = try XCTUnwrap(try ToolRunner.json(set) as? [String: Any])
        XCTAssertEqual(doc["pep"] as? Bool, server.has("avatar-pep"), "\(doc)")
        XCTAssertEqual(doc["vcard"] as? Bool, true)
        if !server.has("avatar-pep") { XCTAssertTrue(set.stderr.contains("the server has no PEP"), set.stderr) }
        let hash = try XCTUnwrap(doc["hash"] as? String)
        let out = reader.home + "/got.png"
        let got = try reader.run("xmpp-avatar", ["get", jid, "-o", out, "--json"])
        XCTAssertEqual(got.status, 0, got.stderr)
        XCTAssertEqual((try ToolRunner.json(got) as? [String: Any])?["hash"] as? String, hash)
        XCTAssertEqual(try sha1Hex(try Data(contentsOf: URL(fileURLWithPath: out))), hash)
    }
}
