import Foundation
import XCTest

/// `xmpp-register batch` against the shared server: awkward CSVs, second runs, policies,
/// generated passwords, shards, --passwd and --delete.
final class BatchEndToEndTests: XCTestCase {
    /// Every test registers fresh accounts and checks them by logging in (a cached session).
    override func setUpWithError() throws {
        try TestServer.require().requireLoginAccounts()
    }

    /// Writes `text` (bytes as given) to a file in the runner's home.
    private func file(_ t: ToolRunner, _ name: String, _ bytes: [UInt8]) throws -> String {
        let path = t.home + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The JSON Lines of a run, by CSV line.
    static func rows(_ r: RunResult) throws -> [Int: [String: Any]] {
        var out: [Int: [String: Any]] = [:]
        for line in r.stdout.split(separator: "\n") {
            let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
            out[try XCTUnwrap(doc["line"] as? Int)] = doc
        }
        return out
    }

    /// The keys xmpp-register(1) documents for every batch JSON Line.
    static let documentedKeys: Set<String> = ["line", "jid", "status", "error", "profile", "pending_columns", "note"]

    static func statuses(_ r: RunResult) throws -> [Int: String] {
        try rows(r).mapValues { $0["status"] as? String ?? "?" }
    }

    private func login(_ t: ToolRunner, _ jid: String, _ password: String) throws -> Int32 {
        try ToolRunner(server: t.server).run("xmpp-login", [jid] + t.serverArgs, password: password).status
    }

    func testAwkwardCSVProvisionsExactlyTheGoodRowsThenReportsThemAsExisting() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let tag = ToolRunner.username("")
        let (a, b, c, d) = ("al\(tag)", "bö\(tag)", "zoë\(tag)", "日本\(tag)")
        let lines = [
            "password,jid,nickname",                                  // 1: columns in another order
            "\"p,\"\"w\",\(t.jid(a)),\"Al, the \"\"first\"\"\"",     // 2: comma and quotes
            "\"bp\",\"\(t.jid(b))\",",                                // 3: quoted JID
            "multi,bad user@\(t.server.domain),\"two",                // 4: invalid JID, field over two lines
            "lines\"",                                                // 5
            ",\(t.jid("nopw\(tag)")),",                               // 6: missing password
            "zp,\(t.jid(c).uppercased()),",                           // 7: upper case folds to zoë…
            "dup,\(t.jid(a)),",                                       // 8: duplicate of line 2
            "jp,\(t.jid(d)),Nihon",                                   // 9: unicode
            "x,\(t.jid("extra\(tag)")),n,surplus",                    // 10: more fields than the header
        ]
        let csv = try file(t, "awkward.csv", [0xEF, 0xBB, 0xBF] + Array((lines.joined(separator: "\r\n") + "\r\n").utf8))

        let first = try t.run("xmpp-register", ["batch", csv, "--json"] + t.serverArgs)
        XCTAssertEqual(first.status, 1, "invalid rows make the run a partial failure: \(first.stderr)")
        XCTAssertEqual(try Self.statuses(first), [2: "created", 3: "created", 4: "invalid", 6: "invalid", 7: "created",
                                                  8: "invalid", 9: "created", 10: "invalid"])
        let rows = try Self.rows(first)
        XCTAssertEqual(rows[7]?["jid"] as? String, t.jid(c), "the JID is case-folded")
        XCTAssertEqual(rows[8]?["error"] as? String, "duplicate of line 2 (\(t.jid(a)))")
        XCTAssertEqual(rows[6]?["error"] as? String, "missing password")
        XCTAssertEqual(rows[2]?["profile"] as? String, "applied")
        XCTAssertTrue(rows[2]?["pending_columns"] is NSNull, "present, and null when no column is pending")
        XCTAssertTrue(rows[3]?["profile"] is NSNull, "a row without profile columns has none")
        XCTAssertTrue(first.stderr.contains("8 rows: 4 created, 4 invalid"), first.stderr)
        // The nickname column reached the vCard, quotes and comma intact.
        let reader = try ToolRunner(server: t.server)
        _ = try reader.makeAccount("rd", login: true)
        let nick = try reader.run("xmpp-vcard", ["get", t.jid(a), "--field", "nickname"])
        XCTAssertEqual(nick.stdout, "Al, the \"first\"\n", nick.stderr)

        XCTAssertEqual(try login(t, t.jid(a), "p,\"w"), 0, "the quoted password was registered exactly")
        XCTAssertEqual(try login(t, t.jid(d), "jp"), 0)
        XCTAssertEqual(try login(t, t.jid("extra\(tag)"), "x"), 3, "an invalid row is never sent")

        let second = try t.run("xmpp-register", ["batch", csv, "--json"] + t.serverArgs)
        XCTAssertEqual(second.status, 1, second.stderr)
        XCTAssertEqual(try Self.statuses(second), [2: "exists", 3: "exists", 4: "invalid", 6: "invalid", 7: "exists",
                                                   8: "invalid", 9: "exists", 10: "invalid"])
        XCTAssertTrue((try Self.rows(second)).values.allSatisfy { $0["status"] as? String == "invalid" || $0["error"] is NSNull })
        for row in Array(try Self.rows(first).values) + Array(try Self.rows(second).values) {
            XCTAssertEqual(Set(row.keys), Self.documentedKeys, "\(row)")
        }
    }

    func testStrictAndDryRunSendNothing() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let good = ToolRunner.username("st")
        let csv = try file(t, "s.csv", Array("jid,password\n\(t.jid(good)),pw\nno-domain,pw\n".utf8))
        let strict = try t.run("xmpp-register", ["batch", csv, "--strict"] + t.serverArgs)
        XCTAssertEqual(strict.status, 9, strict.stderr)
        XCTAssertTrue(strict.stderr.contains("line 3: no-domain: invalid: 'no-domain' has no domain"), strict.stderr)
        XCTAssertTrue(strict.stderr.contains("1 invalid row; nothing was sent (--strict)"), strict.stderr)
        let dry = try t.run("xmpp-register", ["batch", csv, "--dry-run", "--json"] + t.serverArgs)
        XCTAssertEqual(dry.status, 1, dry.stderr)
        XCTAssertEqual(try Self.statuses(dry), [2: "valid", 3: "invalid"])
        for (line, row) in try Self.rows(dry) {
            XCTAssertEqual(Set(row.keys), Self.documentedKeys, "line \(line): every documented key, null when it does not apply")
        }
        XCTAssertEqual(try login(t, t.jid(good), "pw"), 3, "neither run may create the account")
    }

    func testStdinUsernamesGeneratedPasswordsGoOnlyToThePrivateReport() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let users = [ToolRunner.username("g"), ToolRunner.username("g")]
        let report = t.home + "/gen-report.csv"
        let r = try t.run("xmpp-register", ["batch", "-", "--domain", t.server.domain, "--generate-passwords", "--report", report, "--json"] + t.serverArgs,
                          stdin: "username\n" + users.joined(separator: "\n") + "\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try Self.statuses(r), [2: "created", 3: "created"])
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: report)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        XCTAssertEqual(lines.first, ["line", "jid", "status", "error", "profile", "password", "note"])
        XCTAssertEqual(lines.count, 3)
        for (i, fields) in lines.dropFirst().enumerated() {
            XCTAssertEqual(String(fields[1]), t.jid(users[i]))
            let password = String(fields[5])
            XCTAssertEqual(password.count, 24)
            XCTAssertFalse(r.stdout.contains(password), "generated passwords never reach stdout")
            XCTAssertFalse(r.stderr.contains(password))
            XCTAssertEqual(try login(t, t.jid(users[i]), password), 0, "the report's password logs in")
        }
    }

    func testOnExistsFailAndUpdate() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let (jid, password) = try t.makeAccount("ex")
        let csv = try file(t, "e.csv", Array("jid,password,nickname\n\(jid),\(password),Nick\n".utf8))
        let fail = try t.run("xmpp-register", ["batch", csv, "--on-exists", "fail", "--json"] + t.serverArgs)
        XCTAssertEqual(fail.status, 1, fail.stderr)
        XCTAssertEqual(try Self.rows(fail)[2]?["status"] as? String, "exists")
        XCTAssertEqual(try Self.rows(fail)[2]?["error"] as? String, "the account already exists (--on-exists fail)")
        let update = try t.run("xmpp-register", ["batch", csv, "--on-exists", "update", "--json"] + t.serverArgs)
        XCTAssertEqual(update.status, 0, update.stderr)
        let row = try XCTUnwrap(try Self.rows(update)[2])
        XCTAssertEqual(row["status"] as? String, "updated")
        XCTAssertEqual(row["profile"] as? String, "applied")
        let reader = try ToolRunner(server: t.server)
        _ = try reader.makeAccount("rd", login: true)
        let nick = try reader.run("xmpp-vcard", ["get", jid, "--field", "nickname"])
        XCTAssertEqual(nick.stdout, "Nick\n", nick.stderr)
        let wrong = try file(t, "w.csv", Array("jid,password\n\(jid),not-the-password\n".utf8))
        let refused = try t.run("xmpp-register", ["batch", wrong, "--on-exists", "update", "--json"] + t.serverArgs)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertEqual(try Self.rows(refused)[2]?["error"] as? String,
                       "the account exists and the CSV password does not log in, so it was not updated")
    }

    /// Profile columns are set by logging in as each new account, --jobs at a time; rows that
    /// share an image get the same avatar, and a row's own image its own.
    func testProfileColumnsAreAppliedToEveryRowInParallel() throws {
        let t = try ToolRunner(server: try TestServer.require())
        try VCardEndToEndTests.png.write(to: URL(fileURLWithPath: t.home + "/logo.png"))
        try TestPNG.rgb(width: 40, height: 30, seed: 7).write(to: URL(fileURLWithPath: t.home + "/own.png"))
        let users = (0..<6).map { _ in ToolRunner.username("bp") }
        let csv = try file(t, "p.csv", Array(("jid,password,nickname,fullname,avatar\n" + users.enumerated().map { i, u in
            "\(t.jid(u)),pw-\(u),Nick \(i),\"Person, \(i)\",\(i == 5 ? "own.png" : "logo.png")"
        }.joined(separator: "\n")).utf8))
        let r = try t.run("xmpp-register", ["batch", csv, "--jobs", "3", "--json"] + t.serverArgs)
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try Self.rows(r)
        XCTAssertEqual(rows.count, 6, r.stdout)
        for (line, row) in rows {
            XCTAssertEqual(row["status"] as? String, "created", "line \(line)")
            XCTAssertEqual(row["profile"] as? String, "applied", "line \(line): \(row)")
        }

        let reader = try ToolRunner(server: t.server)
        _ = try reader.makeAccount("bq", login: true)
        var hashes: [String] = []
        for (i, user) in users.enumerated() {
            let card = try reader.run("xmpp-vcard", ["get", t.jid(user), "--json"])
            XCTAssertEqual(card.status, 0, card.stderr)
            let c = try XCTUnwrap(try ToolRunner.json(card) as? [String: Any])
            XCTAssertEqual(c["nickname"] as? String, "Nick \(i)")
            XCTAssertEqual(c["fullname"] as? String, "Person, \(i)")
            let info = try reader.run("xmpp-avatar", ["info", t.jid(user), "--json"])
            XCTAssertEqual(info.status, 0, info.stderr)
            hashes.append(try XCTUnwrap((try ToolRunner.json(info) as? [String: Any])?["hash"] as? String))
        }
        XCTAssertEqual(hashes[0], try VCardEndToEndTests.resizedPhoto(t).sha1)
        XCTAssertEqual(Set(hashes[0..<5]).count, 1, "one shared image, one avatar: \(hashes)")
        XCTAssertNotEqual(hashes[5], hashes[0])
    }

    func testPasswdThenDeleteWithTheSameCSVShape() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let users = (0..<3).map { _ in ToolRunner.username("pd") }
        let create = try file(t, "c.csv", Array(("jid,password\n" + users.map { "\(t.jid($0)),old-\($0)" }.joined(separator: "\n")).utf8))
        XCTAssertEqual(try t.run("xmpp-register", ["batch", create] + t.serverArgs).status, 0)
        let change = try file(t, "p.csv", Array(("jid,password,new_password\n"
            + users.map { "\(t.jid($0)),old-\($0),new-\($0)" }.joined(separator: "\n")).utf8))
        let passwd = try t.run("xmpp-register", ["batch", change, "--passwd", "--json"] + t.serverArgs)
        XCTAssertEqual(passwd.status, 0, passwd.stderr)
        XCTAssertEqual(try Self.statuses(passwd), [2: "changed", 3: "changed", 4: "changed"])
        XCTAssertEqual(try login(t, t.jid(users[0]), "old-\(users[0])"), 3)
        XCTAssertEqual(try login(t, t.jid(users[0]), "new-\(users[0])"), 0)
        let again = try t.run("xmpp-register", ["batch", change, "--passwd", "--json"] + t.serverArgs)
        XCTAssertEqual(try Self.statuses(again), [2: "changed", 3: "changed", 4: "changed"], "re-running is harmless: \(again.stderr)")
        // Neither password logs in: the row fails after trying both, and the account keeps its password.
        let wrong = try file(t, "w.csv", Array("jid,password,new_password\n\(t.jid(users[0])),not-it,nor-this\n".utf8))
        let refused = try t.run("xmpp-register", ["batch", wrong, "--passwd", "--json"] + t.serverArgs)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertEqual(try Self.rows(refused)[2]?["error"] as? String,
                       "cannot log in with password or new_password (wrong password, or no such account)")
        XCTAssertEqual(try login(t, t.jid(users[0]), "new-\(users[0])"), 0)

        let (kept, keptPassword) = try t.makeAccount("keep")
        let remove = try file(t, "d.csv", Array(("jid,password\n" + users.map { "\(t.jid($0)),new-\($0)" }.joined(separator: "\n")
            + "\n\(t.jid(ToolRunner.username("none"))),whatever\n\(kept),not-its-password\n").utf8))
        let delete = try t.run("xmpp-register", ["batch", remove, "--delete", "--json"] + t.serverArgs)
        XCTAssertEqual(delete.status, 1, delete.stderr)
        XCTAssertEqual(try Self.statuses(delete), [2: "deleted", 3: "deleted", 4: "deleted", 5: "deleted", 6: "failed"])
        XCTAssertEqual(try Self.rows(delete)[5]?["note"] as? String, "no such account", "deleting what is gone is idempotent")
        XCTAssertTrue(try Self.rows(delete)[5]?["error"] is NSNull)
        XCTAssertTrue(try Self.rows(delete)[2]?["note"] is NSNull)
        XCTAssertEqual(try Self.rows(delete)[6]?["error"] as? String, "cannot log in: wrong password, or no such account",
                       "a wrong password is not taken for a deleted account")
        XCTAssertEqual(try login(t, kept, keptPassword), 0, "the account with the wrong CSV password still exists")
        for user in users { XCTAssertEqual(try login(t, t.jid(user), "new-\(user)"), 3, "\(user) must be gone") }
        // Deleting the same accounts again succeeds: they are all gone.
        let twice = try file(t, "d2.csv", Array(("jid,password\n" + users.map { "\(t.jid($0)),new-\($0)" }.joined(separator: "\n")).utf8))
        let deleteAgain = try t.run("xmpp-register", ["batch", twice, "--delete", "--json"] + t.serverArgs)
        XCTAssertEqual(deleteAgain.status, 0, deleteAgain.stderr)
        XCTAssertEqual(try Self.statuses(deleteAgain), [2: "deleted", 3: "deleted", 4: "deleted"])
    }

    func testShardsSplitOneCSVWithoutOverlap() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let users = (0..<12).map { _ in ToolRunner.username("sh") }
        let csv = try file(t, "sh.csv", Array(("jid,password\n" + users.map { "\(t.jid($0)),pw" }.joined(separator: "\n")).utf8))
        var seen: [Int: String] = [:]
        for k in 1...3 {
            let r = try t.run("xmpp-register", ["batch", csv, "--shard", "\(k)/3", "--json"] + t.serverArgs)
            XCTAssertEqual(r.status, 0, r.stderr)
            for (line, status) in try Self.statuses(r) {
                XCTAssertNil(seen[line], "line \(line) in two shards")
                XCTAssertEqual(status, "created")
                seen[line] = status
            }
        }
        XCTAssertEqual(seen.keys.sorted(), Array(2...13))
    }

    func testStreamsAreReplacedBeforeTheServerTimesThemOutWithoutLosingARequest() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let users = (0..<600).map { _ in ToolRunner.username("age") }
        let csv = try file(t, "age.csv", Array(("jid,password\n" + users.map { "\(t.jid($0)),pw" }.joined(separator: "\n")).utf8))
        let report = t.home + "/age-report.csv"
        // One stream, one request at a time: 600 PBKDF2 registrations outlast the 1 s age on any machine.
        let r = try t.run("xmpp-register", ["batch", csv, "--report", report, "--jobs", "1", "--window", "1",
                                            "--max-stream-age", "1", "--trace"] + t.serverArgs, timeout: 120)
        XCTAssertEqual(r.status, 0, String(r.stderr.suffix(2000)))
        let opens = (r.stderr.components(separatedBy: "SEND <?xml").count - 1) / 2  // two headers: before and after STARTTLS
        XCTAssertGreaterThanOrEqual(opens, 2, "the stream was replaced at least once")
        let retried = try Shell.run(["/usr/bin/sqlite3", report + ".journal", "SELECT count(*) FROM journal_rows WHERE attempts != 1 OR status != 'created'"])
        XCTAssertEqual(retried.stdout, "0\n", "a planned close waits for the answers: no row is sent twice")
    }

    /// -q drops notes, never the --insecure warning.
    func testQuietDoesNotSilenceTheInsecureWarning() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let csv = try file(t, "q.csv", Array("jid,password\n\(t.jid(ToolRunner.username("iq"))),pw\n".utf8))
        let r = try t.run("xmpp-register", ["batch", csv, "-q", "--insecure", "--server", t.server.server])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("WARNING: --insecure: the server certificate is NOT verified"), r.stderr)
    }

    func testUnfinishedJournalIsNotSilentlyReplaced() throws {
        let t = try ToolRunner(server: try TestServer.require())
        let report = t.home + "/u.csv"
        let csv = try file(t, "in.csv", Array("jid,password\n\(t.jid(ToolRunner.username("uf"))),pw\n".utf8))
        XCTAssertEqual(try t.run("xmpp-register", ["batch", csv, "--report", report] + t.serverArgs).status, 0)
        // Mark the journal unfinished, as a crash would leave it.
        _ = try Shell.run(["/usr/bin/sqlite3", report + ".journal", "UPDATE journal_meta SET value='0' WHERE key='finished'; UPDATE journal_rows SET status='sent'"])
        let refused = try t.run("xmpp-register", ["batch", csv, "--report", report] + t.serverArgs)
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("unfinished run of this batch (0 of 1 rows done): continue it with --resume"), refused.stderr)
        let resumed = try t.run("xmpp-register", ["batch", csv, "--report", report, "--resume", "--json"] + t.serverArgs)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertEqual(try Self.statuses(resumed), [2: "created"], "an unanswered registration that did create the account is ours")
    }
}
