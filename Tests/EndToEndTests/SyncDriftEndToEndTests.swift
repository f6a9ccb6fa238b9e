import Foundation
import XCTest

/// `xmpp-register sync` refreshes from the server before it plans: on a server at its default
/// configuration, a small class synced once, then changed behind sync's back — an account
/// deleted with the server's own delete-user, one disabled (where the server can disable), a
/// managed contact removed by its user — is planned back to the file, each difference on its own
/// drift line; --no-refresh sees none of it; --dry-run exits 13 while there is drift and 0 once
/// applied; a password its user changed afterwards is unverified, not drift.
final class SyncDriftEndToEndTests: XCTestCase {
    /// Prosody 13 in its --defaults pass; ejabberd 24.12 at its defaults in the ejabberd24 pass.
    private static func server() throws -> AdminServer {
        let env = ProcessInfo.processInfo.environment
        let kind = env["XT_SERVER"] ?? "prosody"
        let defaultsPass = env["XT_DEFAULTS"] == "1"
        if kind == "prosody13" && defaultsPass { return try AdminServer.requireDefaults() }
        if kind == "ejabberd24" && !defaultsPass { return try AdminServer.requireDefaults(inAnyPass: true) }
        throw XCTSkip("sync runs on Prosody 13 (--defaults pass) and ejabberd 24.12 (its defaults, in the ejabberd24 pass)")
    }

    func testDriftOnTheServerIsPlannedBackToTheFile() throws {
        let admin = try Self.server()
        let t = try admin.adminRunner()
        let domain = t.server.domain
        let tag = String(ToolRunner.username("").prefix(5))
        let pupils = (0..<5).map { "dr\(tag)x\($0)@\(domain)" }
        var csvText = "username,fullname,groups,contacts\r\n"
        for (i, p) in pupils.enumerated() { csvText += "\(p.split(separator: "@")[0]),Pupil \(i),Class,Class\r\n" }
        let csv = t.home + "/class.csv", report = t.home + "/class-pw.csv"
        try Data(csvText.utf8).write(to: URL(fileURLWithPath: csv))
        func sync(_ extra: [String] = []) throws -> RunResult {
            try t.run("xmpp-register", ["sync", csv, "--admin", "--report", report, "--domain", domain] + extra + t.serverArgs, timeout: 120)
        }
        func plan(_ extra: [String] = []) throws -> (status: Int32, json: [String: Any]) {
            let r = try sync(["--dry-run", "--json"] + extra)
            return (r.status, try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout + r.stderr))
        }
        func drift(_ json: [String: Any]) -> [String] {
            (json["drift"] as? [[String: Any]] ?? []).map { "\($0["jid"] as? String ?? "") \($0["what"] as? String ?? ""): \($0["action"] as? String ?? "")" }.sorted()
        }
        let first = try sync()
        XCTAssertEqual(first.status, 13, first.stderr)
        var passwords = try reportPasswords(report)
        let clean = try plan()
        XCTAssertEqual(clean.status, 0, "cron: an empty refreshed plan exits 0")
        XCTAssertEqual(clean.json["format_version"] as? String, "1.1")
        XCTAssertEqual(clean.json["refreshed"] as? Bool, true)
        XCTAssertEqual(clean.json["unchanged"] as? Int, 5)

        // Behind sync's back: pupil 0 deleted by the server's own command, pupil 1 disabled
        // (Prosody 13 offers disable-user; ejabberd has none), pupil 2 removes pupil 3 from its
        // roster.
        let deleted = pupils[0], disabled = pupils[1], remover = pupils[2], removed = pupils[3], changer = pupils[4]
        let del = try t.run("xmpp-adhoc", ["run", "http://jabber.org/protocol/admin#delete-user", "--field", "accountjids=\(deleted)"] + t.serverArgs)
        XCTAssertEqual(del.status, 0, del.stderr)
        let canDisable = admin.server.kind.hasPrefix("prosody")
        if canDisable {
            let off = try t.run("xmpp-register", ["disable", disabled] + t.serverArgs)
            XCTAssertEqual(off.status, 0, off.stderr)
        }
        let rm = try t.run("xmpp-roster", ["remove", removed, "-a", remover] + t.serverArgs, password: passwords[remover])
        XCTAssertEqual(rm.status, 0, rm.stderr)

        // Without the refresh, sync sees none of it.
        let blind = try plan(["--no-refresh"])
        XCTAssertEqual(blind.status, 0, "\(blind.json)")
        XCTAssertEqual(blind.json["refreshed"] as? Bool, false)

        let seen = try plan()
        XCTAssertEqual(seen.status, 13, "cron: drift makes the plan not empty")
        let lines = drift(seen.json)
        XCTAssertTrue(lines.contains("\(deleted) deleted on the server: created again, with a new password"), "\(lines)")
        XCTAssertTrue(lines.contains("\(remover) contact \(removed) removed by its user: added again"), "\(lines)")
        XCTAssertEqual(lines.contains("\(disabled) disabled on the server: enabled"), canDisable, "\(lines)")
        XCTAssertEqual((seen.json["create"] as? [[String: Any]])?.compactMap { $0["jid"] as? String }, [deleted])
        XCTAssertEqual(seen.json["enable"] as? [String], canDisable ? [disabled] : [])
        let text = try sync(["--dry-run"])
        XCTAssertEqual(text.status, 13)
        XCTAssertTrue(text.stdout.contains("drift    \(deleted)  deleted on the server: created again, with a new password"), text.stdout)

        // Applied: the deleted account is back with a new password, the disabled one logs in with
        // its old one, the removed contact is back both ways; the next refresh finds no drift.
        let applied = try sync()
        XCTAssertEqual(applied.status, 13, applied.stderr)
        let old = passwords[deleted]
        passwords = try reportPasswords(report)
        XCTAssertNotEqual(passwords[deleted], old)
        XCTAssertTrue(try admin.logsIn(deleted, try XCTUnwrap(passwords[deleted])))
        XCTAssertTrue(try admin.logsIn(disabled, try XCTUnwrap(passwords[disabled])))
        for (who, contact) in [(remover, removed), (removed, remover), (pupils[2], deleted)] {
            let r = try t.run("xmpp-roster", ["list", "--no-presence", "--json", "-a", who] + t.serverArgs, password: passwords[who])
            XCTAssertEqual(r.status, 0, r.stderr)
            let item = (try ToolRunner.json(r) as? [[String: Any]])?.first { $0["jid"] as? String == contact }
            XCTAssertEqual(item?["subscription"] as? String, "both", "\(who) ↔ \(contact): \(r.stdout)")
        }
        let after = try plan()
        XCTAssertEqual(after.status, 0, "\(after.json)")
        XCTAssertEqual(drift(after.json), [])

        // A password its user changed: the account cannot be read, and that is not drift.
        let pw = try t.run("xmpp-adhoc", ["run", "http://jabber.org/protocol/admin#change-user-password", "--field", "accountjid=\(changer)",
                                          "--password-field", "password"] + t.serverArgs, password: "Changed-by-its-user-1")
        XCTAssertEqual(pw.status, 0, pw.stderr)
        let unverified = try plan()
        XCTAssertEqual(unverified.status, 0, "\(unverified.json)")
        XCTAssertEqual(drift(unverified.json), [])
        XCTAssertEqual((unverified.json["unverified"] as? [[String: Any]])?.compactMap { $0["jid"] as? String }, [changer])
    }

    /// For the columns the file has, the file is the whole truth: an emptied cell clears the
    /// field on the server, and a changed email replaces the old address rather than joining it.
    func testAnEmptiedCellClearsTheFieldAndANewEmailReplacesTheOld() throws {
        let admin = try Self.server()
        let t = try admin.adminRunner()
        let domain = t.server.domain
        let tag = String(ToolRunner.username("").prefix(5))
        let a = "ce\(tag)a@\(domain)", b = "ce\(tag)b@\(domain)"
        let csv = t.home + "/cells.csv", report = t.home + "/cells-pw.csv"
        func write(_ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: csv)) }
        func sync(_ extra: [String] = []) throws -> RunResult {
            try t.run("xmpp-register", ["sync", csv, "--admin", "--report", report, "--domain", domain] + extra + t.serverArgs, timeout: 120)
        }
        let (userA, userB) = (a.split(separator: "@")[0], b.split(separator: "@")[0])
        try write("username,fullname,email\r\n\(userA),Ann A,ann@old.example\r\n\(userB),Bea B,bea@old.example\r\n")
        XCTAssertEqual(try sync().status, 13)
        try write("username,fullname,email\r\n\(userA),Ann A,ann@new.example\r\n\(userB),,\r\n")
        let plan = try sync(["--dry-run"])
        XCTAssertEqual(plan.status, 13, plan.stderr)
        XCTAssertTrue(plan.stdout.contains("profile  \(a): email 'ann@old.example' → 'ann@new.example'"), plan.stdout)
        XCTAssertTrue(plan.stdout.contains("profile  \(b): fullname 'Bea B' cleared (an emptied cell), email 'bea@old.example' cleared (an emptied cell)"),
                      plan.stdout)
        let applied = try sync()
        XCTAssertEqual(applied.status, 13, applied.stderr)
        let passwords = try reportPasswords(report)
        func card(_ jid: String) throws -> [String: Any] {
            let r = try t.run("xmpp-vcard", ["get", jid, "--json", "-a", jid] + t.serverArgs, password: passwords[jid])
            XCTAssertEqual(r.status, 0, r.stderr)
            return try XCTUnwrap(try ToolRunner.json(r) as? [String: Any], r.stdout)
        }
        let cardA = try card(a), cardB = try card(b)
        XCTAssertEqual((cardA["emails"] as? [[String: Any]])?.compactMap { $0["address"] as? String }, ["ann@new.example"], "\(cardA)")
        XCTAssertEqual(cardA["fullname"] as? String, "Ann A")
        XCTAssertNil(cardB["fullname"] as? String, "\(cardB)")
        XCTAssertEqual((cardB["emails"] as? [[String: Any]])?.count ?? 0, 0, "\(cardB)")
        let again = try sync(["--dry-run"])
        XCTAssertEqual(again.status, 0, again.stdout)
    }

    private func reportPasswords(_ path: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for row in try BatchPasswordFlowEndToEndTests.report(path) {
            if let jid = row["jid"], let password = row["password"], !password.isEmpty { out[jid] = password }
        }
        return out
    }
}

/// `xmpp-register sync --adopt`: a class made on day 1 by `batch` goes under sync with no account
/// created again and no password changed (its report is sync's report), and an account made by
/// hand (no password anywhere) is adopted for what the administrator can do: the plan says its
/// profile and roster are not read, and it is removed like any managed leaver.
final class SyncAdoptEndToEndTests: XCTestCase {
    func testABatchMadeClassAndAHandMadeAccountAreAdopted() throws {
        let env = ProcessInfo.processInfo.environment
        let kind = env["XT_SERVER"] ?? "prosody"
        let admin: AdminServer
        if kind == "prosody13" && env["XT_DEFAULTS"] == "1" {
            admin = try AdminServer.requireDefaults()
        } else if kind == "ejabberd24" && env["XT_DEFAULTS"] != "1" {
            admin = try AdminServer.requireDefaults(inAnyPass: true)
        } else {
            throw XCTSkip("sync runs on Prosody 13 (--defaults pass) and ejabberd 24.12 (its defaults, in the ejabberd24 pass)")
        }
        let t = try admin.adminRunner()
        let domain = t.server.domain
        let tag = String(ToolRunner.username("").prefix(5))
        let users = (0..<4).map { "ad\(tag)x\($0)" }
        let hand = try admin.makeAccount("adh")
        let handUser = String(hand.jid.split(separator: "@")[0])
        let csv = t.home + "/day1.csv", report = t.home + "/day1-pw.csv"
        func write(_ rows: [String]) throws {
            try Data(("username,fullname,groups,contacts\r\n" + rows.map { "\($0),Name \($0),Class,Class\r\n" }.joined()).utf8)
                .write(to: URL(fileURLWithPath: csv))
        }
        try write(users)
        let batch = try t.run("xmpp-register", ["batch", csv, "--admin", "--generate-passwords", "--report", report, "--domain", domain] + t.serverArgs,
                              timeout: 120)
        XCTAssertEqual(batch.status, 0, batch.stderr)
        let before = try reportPasswords(report)
        try write(users + [handUser])
        func sync(_ extra: [String]) throws -> RunResult {
            try t.run("xmpp-register", ["sync", csv, "--admin", "--report", report, "--domain", domain] + extra + t.serverArgs, timeout: 120)
        }
        // Without --adopt, the refresh finds them: nothing is created, and the plan names --adopt.
        let unadopted = try sync(["--dry-run"])
        XCTAssertEqual(unadopted.status, 0, unadopted.stdout + unadopted.stderr)
        XCTAssertTrue(unadopted.stdout.contains("skip     \(users[0])@\(domain)  (it existed before sync: not managed, left alone; --adopt manages it)"),
                      unadopted.stdout)
        XCTAssertFalse(unadopted.stdout.contains("create "), unadopted.stdout)
        let plan = try sync(["--adopt", "--dry-run", "--json"])
        XCTAssertEqual(plan.status, 13, plan.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
        let adopt = json["adopt"] as? [[String: Any]] ?? []
        XCTAssertEqual(Set(adopt.compactMap { $0["jid"] as? String }), Set((users + [handUser]).map { "\($0)@\(domain)" }))
        XCTAssertEqual(adopt.first { $0["jid"] as? String == hand.jid }?["password"] as? Bool, false)
        XCTAssertEqual(adopt.filter { $0["password"] as? Bool == true }.count, 4)
        XCTAssertEqual((json["create"] as? [Any])?.count, 0, "nothing created again: \(plan.stdout)")
        XCTAssertEqual((json["drift"] as? [Any])?.count, 0, "the batch's rosters are complete: \(plan.stdout)")
        let text = try sync(["--adopt", "--dry-run"])
        XCTAssertTrue(text.stdout.contains("adopt    \(hand.jid)  (it existed before sync: managed from now on; nothing created again, no password "
                                           + "changed; no password for it in the report or --adopt-report"), text.stdout)

        let applied = try sync(["--adopt"])
        XCTAssertEqual(applied.status, 13, applied.stderr)
        let after = try reportPasswords(report)
        for user in users {
            let jid = "\(user)@\(domain)"
            XCTAssertEqual(after[jid], before[jid], "no password changed")
            XCTAssertTrue(try admin.logsIn(jid, try XCTUnwrap(before[jid])))
        }
        XCTAssertTrue(try admin.logsIn(hand.jid, hand.password), "the hand-made account keeps its password")
        let again = try sync(["--dry-run"])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertTrue(again.stdout.contains("unverified \(hand.jid)"), again.stdout)

        // Managed now: the hand-made account leaving the file is removed like any leaver.
        try write(users)
        let pruned = try sync(["--prune", "delete"])
        XCTAssertEqual(pruned.status, 13, pruned.stderr)
        XCTAssertFalse(try admin.logsIn(hand.jid, hand.password), "deleted")
    }

    private func reportPasswords(_ path: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for row in try BatchPasswordFlowEndToEndTests.report(path) {
            if let jid = row["jid"], let password = row["password"], !password.isEmpty { out[jid] = password }
        }
        return out
    }
}
