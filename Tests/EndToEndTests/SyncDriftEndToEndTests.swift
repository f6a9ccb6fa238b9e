import Foundation
import XCTest

/// `xmpp-register sync` refreshes from the server before it plans: on a server at its default
/// configuration, a small class synced once, then changed behind sync's back — an account
/// deleted with the server's own delete-user, one disabled (where the server can disable), a
/// managed contact removed by its user, a pupil renaming themselves — is planned back to the file, each difference on its own
/// drift line; --no-refresh sees none of it; --dry-run exits 13 while there is drift and 0 once
/// applied; a password its user changed afterwards is unverified, not drift.
final class SyncDriftEndToEndTests: XCTestCase {
    func testDriftOnTheServerIsPlannedBackToTheFile() throws {
        let s = try SyncSetting()
        let (admin, t) = (s.admin, s.t)
        let pupils = s.jids("dr", 5)
        var csvText = "username,fullname,groups,contacts\r\n"
        for (i, p) in pupils.enumerated() { csvText += "\(p.split(separator: "@")[0]),Pupil \(i),Class,Class\r\n" }
        let csv = t.home + "/class.csv", report = t.home + "/class-pw.csv"
        try Data(csvText.utf8).write(to: URL(fileURLWithPath: csv))
        func sync(_ extra: [String] = []) throws -> RunResult { try s.sync(csv, report: report, extra) }
        func plan(_ extra: [String] = []) throws -> (status: Int32, json: [String: Any]) {
            let r = try sync(["--dry-run", "--json"] + extra)
            return (r.status, try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout + r.stderr))
        }
        func drift(_ json: [String: Any]) -> [String] {
            (json["drift"] as? [[String: Any]] ?? []).map { "\($0["jid"] as? String ?? "") \($0["what"] as? String ?? ""): \($0["action"] as? String ?? "")" }.sorted()
        }
        let first = try sync()
        XCTAssertEqual(first.status, 13, first.stderr)
        var passwords = try SyncEndToEndTests.reportPasswords(report)
        let clean = try plan()
        XCTAssertEqual(clean.status, 0, "cron: an empty refreshed plan exits 0")
        XCTAssertEqual(clean.json["format_version"] as? String, "1.2")
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
        // Pupil 3 renames themselves in their client (vcard-temp FN).
        let renamed = try t.run("xmpp-vcard", ["set", "--fullname", "xXx", "-a", removed] + t.serverArgs, password: passwords[removed])
        XCTAssertEqual(renamed.status, 0, renamed.stderr)

        // Without the refresh, sync sees none of it.
        let blind = try plan(["--no-refresh"])
        XCTAssertEqual(blind.status, 0, "\(blind.json)")
        XCTAssertEqual(blind.json["refreshed"] as? Bool, false)

        let seen = try plan()
        XCTAssertEqual(seen.status, 13, "cron: drift makes the plan not empty")
        let lines = drift(seen.json)
        XCTAssertTrue(lines.contains("\(deleted) deleted on the server: created again, with a new password"), "\(lines)")
        XCTAssertTrue(lines.contains("\(remover) contact \(removed) removed by its user: added again"), "\(lines)")
        XCTAssertTrue(lines.contains("\(removed) fullname changed on the server: 'xXx': 'Pupil 3' from the file"), "\(lines)")
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
        passwords = try SyncEndToEndTests.reportPasswords(report)
        XCTAssertNotEqual(passwords[deleted], old)
        XCTAssertTrue(try admin.logsIn(deleted, try XCTUnwrap(passwords[deleted])))
        XCTAssertTrue(try admin.logsIn(disabled, try XCTUnwrap(passwords[disabled])))
        for (who, contact) in [(remover, removed), (removed, remover), (pupils[2], deleted)] {
            let r = try t.run("xmpp-roster", ["list", "--no-presence", "--json", "-a", who] + t.serverArgs, password: passwords[who])
            XCTAssertEqual(r.status, 0, r.stderr)
            let item = (try ToolRunner.json(r) as? [[String: Any]])?.first { $0["jid"] as? String == contact }
            XCTAssertEqual(item?["subscription"] as? String, "both", "\(who) ↔ \(contact): \(r.stdout)")
        }
        let card = try t.run("xmpp-vcard", ["get", removed, "--json", "-a", removed] + t.serverArgs, password: passwords[removed])
        XCTAssertEqual((try ToolRunner.json(card) as? [String: Any])?["fullname"] as? String, "Pupil 3", card.stdout)
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
        let s = try SyncSetting()
        let (t, domain, tag) = (s.t, s.domain, s.tag)
        let a = "ce\(tag)a@\(domain)", b = "ce\(tag)b@\(domain)"
        let csv = t.home + "/cells.csv", report = t.home + "/cells-pw.csv"
        func write(_ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: csv)) }
        func sync(_ extra: [String] = []) throws -> RunResult { try s.sync(csv, report: report, extra) }
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
        let passwords = try SyncEndToEndTests.reportPasswords(report)
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
}
