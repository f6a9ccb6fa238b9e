import Foundation
import XCTest

/// Accounts `batch` made from a file with their own passwords (`username,password`: no report
/// holds them), for the `sync --adopt` tests: the file, rewritten with other columns for the
/// syncs that follow, its report, and a check of the rosters those syncs made.
struct FilePasswordAccounts {
    let s: SyncSetting
    let accounts: [String]
    let users: [String]
    let secrets: [String]
    let csv: String
    let report: String

    /// `count` accounts named `PREFIX TAG x N`, made by `batch` from `header` (which starts
    /// `username,password`) and `row`'s cells after those two.
    init(_ prefix: String, _ count: Int, header: String = "username,password", row: (Int) -> String = { _ in "" }) throws {
        s = try SyncSetting()
        accounts = s.jids(prefix, count)
        users = accounts.map { String($0.split(separator: "@")[0]) }
        let tag = s.tag
        secrets = accounts.indices.map { "\(prefix.uppercased())\(tag)secret\($0)" }
        csv = s.t.home + "/\(prefix).csv"
        report = s.t.home + "/\(prefix)-report.csv"
        try write(header, row)
        let batch = try s.t.run("xmpp-register", ["batch", csv, "--admin", "--report", report, "--domain", s.domain] + s.t.serverArgs, timeout: 120)
        XCTAssertEqual(batch.status, 0, batch.stderr)
    }

    /// Writes the file: `header`, then for each account its name and password (when `header`
    /// has `password` second) and `extra`'s cells.
    func write(_ header: String, _ extra: (Int) -> String) throws {
        let withPassword = header.hasPrefix("username,password")
        let lines = users.indices.map { i in
            [users[i]] + (withPassword ? [secrets[i]] : []) + [extra(i)].filter { !$0.isEmpty }
        }.map { $0.joined(separator: ",") + "\r\n" }
        try Data((header + "\r\n" + lines.joined()).utf8).write(to: URL(fileURLWithPath: csv))
    }

    /// `xmpp-register sync` of the file as the administrator.
    func sync(_ extra: [String] = []) throws -> RunResult { try s.sync(csv, report: report, extra) }

    /// Each account's roster on the server is the others, subscribed both ways, filed under `group`.
    func checkRosters(group: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for (i, account) in accounts.enumerated() {
            let r = try s.t.run("xmpp-roster", ["list", "--no-presence", "--json", "-a", account] + s.t.serverArgs, password: secrets[i])
            XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
            var roster: [String: [String: Any]] = [:]
            for item in try XCTUnwrap(try ToolRunner.json(r) as? [[String: Any]]) { roster[item["jid"] as? String ?? ""] = item }
            XCTAssertEqual(Set(roster.keys), Set(accounts).subtracting([account]), "\(account)'s roster: \(r.stdout)", file: file, line: line)
            for (contact, item) in roster {
                XCTAssertEqual(item["subscription"] as? String, "both", "\(account) ↔ \(contact)", file: file, line: line)
                XCTAssertEqual(item["groups"] as? [String], [group], "\(account) files \(contact)", file: file, line: line)
            }
        }
    }
}
