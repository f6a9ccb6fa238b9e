import Foundation
import XCTest

/// A sync file with its own `password` column: the report does not keep those passwords (they
/// are the administrator's), so the read-back after the run and the next refresh log in with
/// the file's. Two accounts that see each other: the run is checked, not failed for want of a
/// password, and the next sync finds nothing to do rather than calling them unverified.
final class SyncFilePasswordsEndToEndTests: XCTestCase {
    func testAccountsWithTheFilesPasswordsAreReadBackWithThem() throws {
        let s = try SyncSetting()
        let t = s.t
        let accounts = s.jids("fp", 2)
        let secrets = accounts.indices.map { "Fp\(s.tag)secret\($0)" }
        var csvText = "username,password,groups,contacts\r\n"
        for (i, a) in accounts.enumerated() { csvText += "\(a.split(separator: "@")[0]),\(secrets[i]),Room,Room\r\n" }
        let csv = t.home + "/own.csv", report = t.home + "/own-report.csv"
        try Data(csvText.utf8).write(to: URL(fileURLWithPath: csv))

        let first = try s.sync(csv, report: report)
        XCTAssertEqual(first.status, 13, "checked with the file's passwords, not failed: " + first.stderr)
        XCTAssertFalse(first.stderr.contains("not kept"), first.stderr)
        XCTAssertFalse(first.stderr.contains("not verified"), first.stderr)
        let kept = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        for secret in secrets { XCTAssertFalse(kept.contains(secret), "the file's password is never written to the report") }

        let next = try s.sync(csv, report: report, ["--dry-run", "--json"])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [String: Any], next.stdout + next.stderr)
        XCTAssertEqual((json["unverified"] as? [Any])?.count, 0, next.stdout)
        XCTAssertEqual(next.status, 0, "nothing to do: " + next.stdout + next.stderr)
        let login = try t.run("xmpp-vcard", ["get", "--json", "-a", accounts[0]] + t.serverArgs, password: secrets[0])
        XCTAssertEqual(login.status, 0, "made with the file's password: " + login.stderr)
    }

    /// `sync --adopt` of accounts `batch` made from a file with its own passwords (so no report
    /// holds them): adopted with the file's passwords, in memory only, and managed fully: the
    /// rosters the batch file did not have are made, both ways, the next sync finds nothing to do,
    /// and a full name its user changes is drift the file wins (the profile is read with the file's password).
    func testAccountsBatchMadeWithTheFilesPasswordsAreAdoptedWithTheirRosters() throws {
        let m = try FilePasswordAccounts("fa", 3, header: "username,password,fullname") { "Member \($0)" }
        let (t, accounts, secrets) = (m.s.t, m.accounts, m.secrets)
        try m.write("username,password,fullname,groups,contacts") { "Member \($0),Club,Club" }

        let plan = try m.sync(["--adopt", "--dry-run", "--json"])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any], plan.stdout + plan.stderr)
        let adopt = json["adopt"] as? [[String: Any]] ?? []
        XCTAssertEqual(Set(adopt.compactMap { $0["jid"] as? String }), Set(accounts), plan.stdout)
        XCTAssertEqual(adopt.filter { $0["password"] as? Bool == true }.count, 3, "the file's passwords count: \(plan.stdout)")

        let applied = try m.sync(["--adopt"])
        XCTAssertEqual(applied.status, 13, applied.stdout + applied.stderr)
        XCTAssertFalse(applied.stderr.contains("cannot be checked"), applied.stderr)
        try m.checkRosters(group: "Club")
        let kept = (try? String(contentsOfFile: m.report, encoding: .utf8)) ?? ""
        for secret in secrets { XCTAssertFalse(kept.contains(secret), "the file's password is never written to the report") }
        let stateFiles = ((try? FileManager.default.subpathsOfDirectory(atPath: t.home)) ?? []).filter { $0.contains("xmpp-tools/sync/") }
        XCTAssertFalse(stateFiles.isEmpty, "sync's state is under the home")
        for path in stateFiles {
            let text = (try? String(contentsOfFile: t.home + "/" + path, encoding: .utf8)) ?? ""
            for secret in secrets { XCTAssertFalse(text.contains(secret), "nor to \(path)") }
        }

        let next = try m.sync(["--dry-run", "--json"])
        let again = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [String: Any], next.stdout + next.stderr)
        XCTAssertEqual((again["unverified"] as? [Any])?.count, 0, next.stdout)
        XCTAssertEqual(next.status, 0, "nothing to do: " + next.stdout + next.stderr)

        let renamed = try t.run("xmpp-vcard", ["set", "--fullname", "xXx", "-a", accounts[1]] + t.serverArgs, password: secrets[1])
        XCTAssertEqual(renamed.status, 0, renamed.stderr)
        let drifted = try m.sync(["--dry-run", "--json"])
        XCTAssertEqual(drifted.status, 13, drifted.stdout + drifted.stderr)
        let seen = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(drifted.stdout.utf8)) as? [String: Any], drifted.stdout)
        let drift = (seen["drift"] as? [[String: Any]] ?? []).map { "\($0["jid"] ?? "") \($0["what"] ?? "")" }
        XCTAssertEqual(drift, ["\(accounts[1]) fullname changed on the server: 'xXx'"], drifted.stdout)
    }

    /// Accounts adopted while the file gave no password (so none anywhere) are taken up once
    /// the file gains its password column: the next sync makes their rosters, both ways.
    func testAccountsAdoptedWithoutPasswordsAreManagedOnceTheFileGivesThem() throws {
        let m = try FilePasswordAccounts("fl", 2)
        try m.write("username,groups,contacts") { _ in "Club,Club" }
        let adopted = try m.sync(["--adopt"])
        XCTAssertEqual(adopted.status, 13, adopted.stdout + adopted.stderr)
        XCTAssertTrue(adopted.stdout.contains("no password for it in the report, --adopt-report or the file"), adopted.stdout)
        XCTAssertFalse(adopted.stdout.contains("roster   "), "no roster without a password: \(adopted.stdout)")

        try m.write("username,password,groups,contacts") { _ in "Club,Club" }
        let managed = try m.sync()
        XCTAssertEqual(managed.status, 13, managed.stdout + managed.stderr)
        try m.checkRosters(group: "Club")
    }
}
