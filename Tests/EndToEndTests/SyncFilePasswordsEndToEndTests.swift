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
}
