import Foundation
import XCTest

/// The private OpenLDAP `scripts/test` starts beside the prosody13 pass (`scripts/test-server
/// start slapd`), found by its XT_LDAP_* lines.
struct LDAPDirectory {
    let uri: String
    let people: String
    let rootDN: String
    let rootPasswordFile: String

    /// The pass's directory, or a skip where the pass has none (scripts/test gives the prosody13
    /// pass one, and a slapd that does not start fails that pass, under CI=true too).
    static func require() throws -> LDAPDirectory {
        let env = ProcessInfo.processInfo.environment
        guard let uri = env["XT_LDAP_URI"], let people = env["XT_LDAP_PEOPLE"], let rootDN = env["XT_LDAP_ROOT_DN"],
              let file = env["XT_LDAP_ROOT_PW_FILE"] else {
            throw XCTSkip("runs in the pass with a directory (XT_LDAP_URI: scripts/test starts slapd for prosody13)")
        }
        return LDAPDirectory(uri: uri, people: people, rootDN: rootDN, rootPasswordFile: file)
    }

    /// `ldapadd` of `ldif` as the root DN (its password from the 0600 file, never in argv).
    func add(_ ldif: String) throws {
        let r = try Shell.run(["/usr/bin/env", "ldapadd", "-x", "-H", uri, "-D", rootDN, "-y", rootPasswordFile], stdin: Data(ldif.utf8), timeout: 30)
        guard r.status == 0 else { throw TestServerError.unusable("ldapadd failed: \(r.stderr)") }
    }

    /// The shell words of an anonymous `ldapsearch -LLL` under ou=People for `filter`.
    func searchCommand(_ filter: String) -> String {
        "ldapsearch -x -LLL -H '\(uri)' -b '\(people)' '\(filter)'"
    }
}

/// `ldapsearch -LLL … | xmpp-register batch - --format ldif --map … --admin`: people kept in a
/// real directory, photos included, become the accounts, vCard names and avatars that the same
/// people written as a CSV (photos as files) give.
final class LDIFBatchEndToEndTests: XCTestCase {
    private static let jpegs: [Data] = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { url.deleteLastPathComponent() }
        return ["adobe-rgb.jpg", "display-p3.jpg"].compactMap {
            try? Data(contentsOf: url.appendingPathComponent("PNGImageTests/Data/colour/" + $0))
        }
    }()

    /// The people: a photo each but the last, two sharing one; a name ldapsearch writes in base
    /// 64 (not ASCII); several ou values (groups).
    private static let people: [(name: String, fullname: String, photo: Int?, groups: [String])] = [
        ("ann", "Ann Example", 0, ["Class 5A", "Choir"]),
        ("bo", "Bø Müller-Łukasz", 1, ["Class 5A"]),
        ("cy", "Cy Teacher", 0, ["Teachers"]),
        ("di", "Di Nophoto", nil, []),
    ]

    func testDirectoryEntriesGiveTheAccountsNamesAndAvatarsTheCSVGives() throws {
        let directory = try LDAPDirectory.require()
        XCTAssertEqual(Self.jpegs.count, 2, "the JPEG fixtures of PNGImageTests")
        let admin = try AdminServer.require()
        let t = try admin.adminRunner()
        let tag = String(ToolRunner.username("").prefix(6))
        let domain = admin.server.domain

        try directory.add(Self.ldif(tag: tag, prefix: "ld", directory: directory))

        // The directory piped into the batch, as the man page shows it.
        let report = t.home + "/ldif-report.csv"
        let pipeline = [
            directory.searchCommand("(&(objectClass=inetOrgPerson)(uid=ld\(tag)*))"),
            "| '\(Paths.binaries)/xmpp-register' batch - --format ldif --map uid=username,cn=fullname,jpegPhoto=avatar,ou=groups",
            "--domain \(domain) --admin --generate-passwords --report '\(report)' --json",
        ].joined(separator: " ") + " " + t.serverArgs.map { "'\($0)'" }.joined(separator: " ")
        let fromLDIF = try Shell.run(["/bin/bash", "-c", "set -o pipefail; " + pipeline], environment: t.environment, timeout: 120)
        XCTAssertEqual(fromLDIF.status, 0, fromLDIF.stderr)
        let ldifRows = try BatchEndToEndTests.rows(fromLDIF)

        // The same people as a CSV, the photos as files next to it.
        let csvPath = try Self.writeCSV(t, tag: tag, prefix: "cs")
        let fromCSV = try t.run("xmpp-register", ["batch", csvPath, "--domain", domain, "--admin", "--generate-passwords",
                                                  "--report", t.home + "/csv-report.csv", "--json"] + t.serverArgs, timeout: 120)
        XCTAssertEqual(fromCSV.status, 0, fromCSV.stderr)
        let csvRows = try BatchEndToEndTests.rows(fromCSV)

        // The same rows: every account created, its profile applied, in both.
        XCTAssertEqual(ldifRows.count, Self.people.count, fromLDIF.stdout)
        XCTAssertEqual(csvRows.count, Self.people.count, fromCSV.stdout)
        func summary(_ rows: [Int: [String: Any]], _ prefix: String) -> [String: String] {
            Dictionary(uniqueKeysWithValues: rows.values.map { row in
                let jid = (row["jid"] as? String ?? "").replacingOccurrences(of: prefix + tag, with: "")
                return (jid, "\(row["status"] as? String ?? "?") \(row["profile"] as? String ?? "-")")
            })
        }
        XCTAssertEqual(summary(ldifRows, "ld"), summary(csvRows, "cs"))
        XCTAssertEqual(Set(summary(ldifRows, "ld").values), ["created applied"])

        try Self.assertSameProfiles(t, t, tag: tag)
    }

    /// The people as inetOrgPerson entries under ou=People, uid PREFIX+tag+name, jpegPhoto binary.
    private static func ldif(tag: String, prefix: String, directory: LDAPDirectory) -> String {
        var ldif = ""
        for p in people {
            ldif += "dn: uid=\(prefix)\(tag)\(p.name),\(directory.people)\nobjectClass: inetOrgPerson\nuid: \(prefix)\(tag)\(p.name)\n"
            ldif += "cn:: \(Data(p.fullname.utf8).base64EncodedString())\nsn: \(p.name)\n"
            ldif += p.groups.map { "ou: \($0)\n" }.joined()
            if let photo = p.photo { ldif += "jpegPhoto:: \(jpegs[photo].base64EncodedString())\n" }
            ldif += "\n"
        }
        return ldif
    }

    /// The people as a CSV in `t`'s home (user names PREFIX+tag+name), the photos as files beside it.
    private static func writeCSV(_ t: ToolRunner, tag: String, prefix: String) throws -> String {
        var csv = "username,fullname,avatar,groups\n"
        for (i, photo) in jpegs.enumerated() { try photo.write(to: URL(fileURLWithPath: t.home + "/photo\(i).jpg")) }
        for p in people {
            let groups = p.groups.joined(separator: ";")
            csv += "\(prefix)\(tag)\(p.name),\(p.fullname),\(p.photo.map { "photo\($0).jpg" } ?? ""),\(groups)\n"
        }
        let csvPath = t.home + "/people-\(prefix).csv"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: csvPath))
        return csvPath
    }

    /// The directory's accounts (ld…, read with `ld`'s home) have the vCard names and avatars of
    /// the CSV's (cs…, with `cs`'s home), account by account.
    private static func assertSameProfiles(_ ld: ToolRunner, _ cs: ToolRunner, tag: String,
                                           fullnames: [String: String] = [:]) throws {
        var avatarHashes: [String: String] = [:]
        for p in people {
            let pair = [(ld, ld.jid("ld\(tag)\(p.name)")), (cs, cs.jid("cs\(tag)\(p.name)"))]
            let cards = try pair.map { t, jid in
                let r = try t.run("xmpp-vcard", ["get", jid, "--json"] + t.serverArgs)
                XCTAssertEqual(r.status, 0, r.stderr)
                return try XCTUnwrap(try ToolRunner.json(r) as? [String: Any])["fullname"] as? String
            }
            XCTAssertEqual(cards, [fullnames[p.name] ?? p.fullname, p.fullname], p.name)
            let avatars = try pair.map { t, jid in
                let r = try t.run("xmpp-avatar", ["info", jid, "--json"] + t.serverArgs)
                let hash = r.status == 0 ? (try? ToolRunner.json(r) as? [String: Any])?["hash"] as? String : nil
                return "\(r.status) \(hash ?? "no hash")"
            }
            XCTAssertEqual(avatars[0], avatars[1], "\(p.name): the directory's photo is the CSV's avatar")
            XCTAssertEqual(avatars[0].hasPrefix("0 ") && !avatars[0].hasSuffix("no hash"), p.photo != nil, "\(p.name): \(avatars[0])")
            avatarHashes[p.name] = avatars[0]
        }
        XCTAssertEqual(avatarHashes["ann"], avatarHashes["cy"], "one photo, one avatar")
        XCTAssertNotEqual(avatarHashes["ann"], avatarHashes["bo"])
    }

    /// `ldapsearch -LLL … | xmpp-register sync - --format ldif --map … --admin`: the directory
    /// keeps XMPP in step. The first sync gives the accounts, names and avatars a sync of the same
    /// people as a CSV gives; the same directory again plans nothing; a name changed in the
    /// directory is one field of one account.
    func testSyncFromTheDirectoryGivesTheCSVsAccounts() throws {
        let directory = try LDAPDirectory.require()
        let admin = try AdminServer.require()
        let ld = try admin.adminRunner(), cs = try admin.adminRunner()  // two homes: two sync states
        let tag = String(ToolRunner.username("").prefix(6))
        let domain = admin.server.domain
        try directory.add(Self.ldif(tag: tag, prefix: "ld", directory: directory))
        let search = directory.searchCommand("(&(objectClass=inetOrgPerson)(uid=ld\(tag)*))")
        func sync(_ extra: String, from producer: String? = nil) throws -> RunResult {
            let pipeline = [
                producer ?? search,
                "| '\(Paths.binaries)/xmpp-register' sync - --format ldif --map uid=username,cn=fullname,jpegPhoto=avatar,ou=groups",
                "--domain \(domain) --admin --report '\(ld.home)/sync-report.csv' \(extra)",
            ].joined(separator: " ") + " " + ld.serverArgs.map { "'\($0)'" }.joined(separator: " ")
            return try Shell.run(["/bin/bash", "-c", pipeline], environment: ld.environment, timeout: 120)
        }
        let first = try sync("")
        XCTAssertEqual(first.status, 13, first.stderr)
        let csv = try Self.writeCSV(cs, tag: tag, prefix: "cs")
        let fromCSV = try cs.run("xmpp-register", ["sync", csv, "--domain", domain, "--admin", "--report", cs.home + "/r.csv"] + cs.serverArgs,
                                 timeout: 120)
        XCTAssertEqual(fromCSV.status, 13, fromCSV.stderr)
        try Self.assertSameProfiles(ld, cs, tag: tag)

        let again = try sync("--dry-run --json")
        XCTAssertEqual(again.status, 0, again.stderr + again.stdout)
        XCTAssertTrue(again.stdout.contains("\"changes\":false"), again.stdout)

        let renamed = "Bo Renamed"
        let change = "dn: uid=ld\(tag)bo,\(directory.people)\nchangetype: modify\nreplace: cn\ncn: \(renamed)\n"
        let modified = try Shell.run(["/usr/bin/env", "ldapmodify", "-x", "-H", directory.uri, "-D", directory.rootDN,
                                      "-y", directory.rootPasswordFile], stdin: Data(change.utf8), timeout: 30)
        XCTAssertEqual(modified.status, 0, modified.stderr)
        let plan = try sync("--dry-run --json")
        XCTAssertEqual(plan.status, 13, plan.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
        let profiles = json["profile"] as? [[String: Any]] ?? []
        XCTAssertEqual(profiles.compactMap { $0["jid"] as? String }, [ld.jid("ld\(tag)bo")], plan.stdout)
        XCTAssertEqual(((profiles.first?["fields"] as? [[String: Any]])?.first)?["to"] as? String, renamed)
        XCTAssertEqual(try sync("").status, 13)
        try Self.assertSameProfiles(ld, cs, tag: tag, fullnames: ["bo": renamed])

        // A directory that is down prints nothing, and an export cut short ends inside a line:
        // each is refused before any plan (issue 34: they disabled the school), and the directory
        // itself still plans nothing.
        let empty = try sync("", from: "printf ''")
        XCTAssertEqual(empty.status, 9, empty.stderr)
        XCTAssertTrue(empty.stderr.contains("no records"), empty.stderr)
        let cut = try sync("", from: search + " | head -c -12")
        XCTAssertEqual(cut.status, 9, cut.stderr)
        XCTAssertTrue(cut.stderr.contains("cut short"), cut.stderr)
        let still = try sync("--dry-run --json")
        XCTAssertTrue(still.stdout.contains("\"changes\":false"), still.stdout + still.stderr)
    }
}
