import Foundation
import XCTest

/// xmpp-register handout: the PDF read back with poppler (pdftoppm, pdftotext, pdffonts) and
/// zbar (zbarimg), as a person reading the slips and a phone scanning them would.
final class HandoutEndToEndTests: XCTestCase {
    /// Names as schools have them: accents, CJK (drawn with a CJK font fontconfig falls back to),
    /// and a right-to-left name.
    static let people: [(user: String, name: String, group: String)] = [
        ("anna", "Anna Müller", "Class 5A"), ("zoe", "Zoë Ångström-Łukasiewicz", "Class 5A"), ("li", "李小龙", "Class 5B"),
        ("mei", "王美玲", "Class 5B"), ("sara", "سارة أحمد", "Class 5B"), ("ola", "Øla Ñúñez", "Class 5A"),
    ]

    func testSlipsReadBackAndOnlyNewRowsArePrintedTheSecondTime() throws {
        let home = try OfflineHome("handout", imageSeed: 1)
        defer { home.remove() }
        let report = home.path + "/pw.csv"
        var rows = "line,jid,status,error,profile,password,note,name,groups\r\n"
        var passwords: [String: String] = [:]
        for (i, p) in Self.people.enumerated() {
            let password = "Pw\(i)x" + String(UUID().uuidString.prefix(8)).replacingOccurrences(of: "-", with: "")
            passwords[p.user] = password
            rows += "\(i + 2),\(p.user)@school.example,created,,,\(password),,\(p.name),\(p.group)\r\n"
        }
        rows += "9,old@school.example,exists,,,,,Old Timer,Class 5A\r\n"
        try write(rows, to: report)
        let pdf = home.path + "/slips.pdf"
        let first = try Shell.run([Paths.binaries + "/xmpp-register", "handout", report, "-o", pdf], environment: home.environment)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("6 slips on 2 pages"), first.stdout)
        XCTAssertTrue(first.stderr.contains("1 row gets no slip"), first.stderr)
        XCTAssertEqual(try mode(pdf), 0o600, "the PDF holds passwords")

        let text = try Self.tool("pdftotext", [pdf, "-"])
        for p in Self.people where p.user != "sara" {
            XCTAssertTrue(text.contains(p.name), "\(p.name) in the text layer:\n\(text)")
            XCTAssertTrue(text.contains(p.user + "@school.example"))
            XCTAssertTrue(text.contains(passwords[p.user] ?? "?"), "the password is text, not a picture")
        }
        // pdftotext splits an Arabic word where cairo's glyph clusters join: its letters, in order.
        XCTAssertTrue(Self.letters(text).contains(Self.letters("سارة أحمد")), text)
        XCTAssertFalse(text.contains("Old Timer"), "a row without a secret gets no slip")
        let classA = try XCTUnwrap(text.range(of: "Class 5A")), classB = try XCTUnwrap(text.range(of: "Class 5B"))
        XCTAssertLessThan(classA.lowerBound, classB.lowerBound, "groups in the report's order, each under its heading")

        let fonts = try Self.tool("pdffonts", [pdf])
        let fontRows = fonts.split(separator: "\n").dropFirst(2)
        XCTAssertTrue(fonts.contains("DejaVuSansMono"), "passwords in DejaVu Sans Mono:\n\(fonts)")
        XCTAssertGreaterThan(fontRows.count, 2)
        for row in fontRows {
            let columns = row.split(separator: " ")
            XCTAssertEqual(columns.count >= 5 ? columns[columns.count - 5] : "", "yes", "every font embedded: \(row)")
        }

        // A picture of the first page for a person to look at (.build/test-artifacts/).
        try Self.tool("pdftoppm", ["-r", "100", "-f", "1", "-l", "1", "-png", "-singlefile", pdf, Self.artifacts + "/handout-passwords"])

        // The report now records the slips; its columns kept, handed_out added last.
        let stamped = try String(contentsOfFile: report, encoding: .utf8).components(separatedBy: "\r\n")
        XCTAssertEqual(stamped[0], "line,jid,status,error,profile,password,note,name,groups,handed_out")
        XCTAssertTrue(stamped[1].hasPrefix("2,anna@school.example,created,,," + (passwords["anna"] ?? "") + ",,Anna Müller,Class 5A,20"), stamped[1])
        XCTAssertTrue(stamped[7].hasSuffix("Old Timer,Class 5A,"), "no slip, no stamp: \(stamped[7])")
        XCTAssertEqual(try mode(report), 0o600)

        let again = try Shell.run([Paths.binaries + "/xmpp-register", "handout", report, "-o", pdf], environment: home.environment)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("every slip was printed before"), again.stderr)

        // A row added since (as a later sync adds it): only it is printed.
        try write(try String(contentsOfFile: report, encoding: .utf8) + "10,neu@school.example,created,,,NeuPw7xK,,Jürgen Neu,Class 5B,\r\n", to: report)
        let second = try Shell.run([Paths.binaries + "/xmpp-register", "handout", report, "-o", pdf], environment: home.environment)
        XCTAssertEqual(second.status, 0, second.stderr)
        let secondText = try Self.tool("pdftotext", [pdf, "-"])
        XCTAssertTrue(secondText.contains("Jürgen Neu"))
        XCTAssertFalse(secondText.contains("Anna Müller"), "a slip printed before is not printed again:\n\(secondText)")

        let all = try Shell.run([Paths.binaries + "/xmpp-register", "handout", report, "--all", "--group", "Class 5B", "-o", pdf],
                                environment: home.environment)
        XCTAssertEqual(all.status, 0, all.stderr)
        let allText = try Self.tool("pdftotext", [pdf, "-"])
        XCTAssertTrue(allText.contains("李小龙") && allText.contains("Jürgen Neu"))
        XCTAssertFalse(allText.contains("Anna Müller"), "--group prints that group only")
        let unknown = try Shell.run([Paths.binaries + "/xmpp-register", "handout", report, "--group", "Class 9Z", "-o", pdf],
                                    environment: home.environment)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("its groups: Class 5A, Class 5B"), unknown.stderr)
    }

    func testEveryInviteScansBackToItsURI() throws {
        let home = try OfflineHome("handout-invites", imageSeed: 2)
        defer { home.remove() }
        let report = home.path + "/invites.csv"
        var rows = "line,jid,status,error,profile,invite,landing_page,note,name,groups\r\n"
        var uris: [String] = []
        for i in 0..<10 {
            let token = UUID().uuidString.replacingOccurrences(of: "-", with: "")
            let uri = "xmpp:school.example?register;preauth=\(token)"
            uris.append(uri)
            rows += "\(i + 2),p\(i)@school.example,invited,,,\(uri),https://school.example/invite/\(token),,Pupil \(i) 学生,Class \(i < 5 ? "1" : "2")\r\n"
        }
        try write(rows, to: report)
        let pdf = home.path + "/invites.pdf"
        let r = try Shell.run([Paths.binaries + "/xmpp-register", "handout", report, "--paper", "letter", "-o", pdf, "--json"],
                              environment: home.environment)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\"slips\" : 10") || r.stdout.contains("\"slips\": 10"), r.stdout)
        let info = try Self.tool("pdfinfo", [pdf])
        XCTAssertTrue(info.contains("612 x 792 pts"), "Letter paper: \(info)")
        let pages = home.path + "/page"
        try Self.tool("pdftoppm", ["-r", "150", "-png", pdf, pages])
        let images = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix("page") }.sorted()
        XCTAssertEqual(images.count, 2, "one page per group")
        var decoded: [String] = []
        for image in images {
            decoded += try Self.tool("zbarimg", ["--quiet", "--raw", home.path + "/" + image]).split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(decoded.sorted(), uris.sorted(), "every code reads back to its invite, none twice, none missing")
        try? FileManager.default.removeItem(atPath: Self.artifacts + "/handout-invites.png")
        try FileManager.default.copyItem(atPath: home.path + "/" + images[0], toPath: Self.artifacts + "/handout-invites.png")
        let text = try Self.tool("pdftotext", [pdf, "-"])
        for i in 0..<10 { XCTAssertTrue(text.contains("Pupil \(i) 学生"), text) }
        XCTAssertFalse(text.contains("preauth="), "the invite is in the code only")
    }

    func testThePDFGoesOnlyWhereTheReportCould() throws {
        let home = try OfflineHome("handout-refused", imageSeed: 3)
        defer { home.remove() }
        let report = home.path + "/pw.csv"
        try write("line,jid,status,error,profile,password,note\r\n2,a@school.example,created,,,Secret1x,\r\n", to: report)
        let open = home.path + "/shared"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(open, 0o777), 0)
        let shared = try Shell.run([Paths.binaries + "/xmpp-register", "handout", report, "-o", open + "/s.pdf"], environment: home.environment)
        XCTAssertEqual(shared.status, 1)
        XCTAssertTrue(shared.stderr.contains("cannot write the slips"), shared.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: open + "/s.pdf"))
        let link = home.path + "/link.pdf"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: home.path + "/elsewhere.pdf")
        let linked = try Shell.run([Paths.binaries + "/xmpp-register", "handout", report, "-o", link], environment: home.environment)
        XCTAssertEqual(linked.status, 1)
        XCTAssertTrue(linked.stderr.contains("symbolic link"), linked.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.path + "/elsewhere.pdf"))
        XCTAssertFalse(try String(contentsOfFile: report, encoding: .utf8).contains("handed_out"), "nothing printed, nothing marked")
        let over = try Shell.run([Paths.binaries + "/xmpp-register", "handout", report, "-o", report], environment: home.environment)
        XCTAssertEqual(over.status, 2, over.stderr)
        let mixed = try Shell.run([Paths.binaries + "/xmpp-register", "handout", report, "-o", "-", "--json"], environment: home.environment)
        XCTAssertEqual(mixed.status, 2, "the PDF and the JSON cannot share standard output: \(mixed.stderr)")
        let piped = try Shell.run([Paths.binaries + "/xmpp-register", "handout", report, "-o", "-"], environment: home.environment)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertTrue(piped.stdout.hasPrefix("%PDF-"), "-o - writes the PDF to a pipe")
        XCTAssertTrue(piped.stderr.contains("1 slip on 1 page; marked handed out"), piped.stderr)
        XCTAssertEqual(chmod(report, 0o644), 0)
        XCTAssertEqual(chmod(home.path, 0o777), 0)
        let unsafe = try Shell.run([Paths.binaries + "/xmpp-register", "handout", report, "-o", home.path + "/s.pdf"], environment: home.environment)
        XCTAssertEqual(unsafe.status, 1, "a report in a directory others can write to is not believed: \(unsafe.stderr)")
        XCTAssertEqual(chmod(home.path, 0o700), 0)
    }

    func testTheSlipPrinterRefusesAMalformedRequestWithAMessage() throws {
        let r = try Shell.run([Paths.binaries + "/xmpp-tools-slips"], stdin: Data("{\"paper\":\"a3\"}".utf8))
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "xmpp-tools-slips: cannot read the slips to print: no paper a4 or letter\n")
        XCTAssertTrue(r.stdout.isEmpty)
    }

    /// Batch, handout, a batch with more rows over the same report, handout: the second PDF has
    /// only the new account, because the batch kept the first rows' handed_out.
    func testALaterBatchKeepsTheStampsSoOnlyNewAccountsArePrinted() throws {
        let server = try TestServer.require()
        try server.require("register-unthrottled", "three in-band registrations from one address within seconds")
        let t = try ToolRunner(server: server)
        let users = (0..<3).map { _ in Self.username("ho") }
        let csv = t.home + "/pupils.csv", report = t.home + "/pw.csv", pdf = t.home + "/slips.pdf"
        try write("username,fullname,groups\n" + users.prefix(2).map { "\($0),Name \($0),Class 1" }.joined(separator: "\n") + "\n", to: csv)
        let batch = ["batch", csv, "--domain", t.server.domain, "--generate-passwords", "--report", report] + t.serverArgs
        XCTAssertEqual(try t.run("xmpp-register", batch).status, 0)
        let first = try t.run("xmpp-register", ["handout", report, "-o", pdf])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("2 slips"), first.stdout)
        try write("username,fullname,groups\n" + users.map { "\($0),Name \($0),Class 1" }.joined(separator: "\n") + "\n", to: csv)
        let rerun = try t.run("xmpp-register", batch)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        let header = try String(contentsOfFile: report, encoding: .utf8).components(separatedBy: "\r\n")[0]
        XCTAssertTrue(header.hasSuffix(",name,groups,handed_out"), header)
        let second = try t.run("xmpp-register", ["handout", report, "-o", pdf])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("1 slip "), second.stdout)
        let text = try Self.tool("pdftotext", [pdf, "-"])
        XCTAssertTrue(text.contains("Name \(users[2])"))
        XCTAssertFalse(text.contains("Name \(users[0])"), text)
    }

    /// A real server's invites (Prosody's mod_invites through batch --invite): every code on
    /// the slips scans back to exactly the report's invite URIs.
    func testABatchsInvitesScanBackFromTheSlips() throws {
        let admin = try AdminServer.requireInvites()
        let t = try admin.adminRunner()
        let users = (0..<4).map { _ in Self.username("slip") }
        let csv = t.home + "/pupils.csv", report = t.home + "/invites.csv", pdf = t.home + "/invites.pdf"
        try write("username,fullname,groups\n" + users.enumerated().map { "\($1),Schüler \($0) 学生,Klasse \($0 % 2)" }.joined(separator: "\n") + "\n",
                  to: csv)
        let batch = try t.run("xmpp-register", ["batch", csv, "--domain", admin.server.domain, "--invite", "--report", report] + t.serverArgs)
        XCTAssertEqual(batch.status, 0, batch.stderr)
        let rows = try String(contentsOfFile: report, encoding: .utf8).components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
        let uris = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false)[5] }.map(String.init)
        XCTAssertEqual(uris.count, 4)
        let r = try t.run("xmpp-register", ["handout", report, "-o", pdf])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("4 slips on 2 pages"), r.stdout)
        XCTAssertEqual(try Self.decodedCodes(pdf, in: t.home + "/pages").sorted(), uris.sorted())
        let text = try Self.tool("pdftotext", [pdf, "-"])
        for i in 0..<4 { XCTAssertTrue(text.contains("Schüler \(i) 学生"), text) }
    }

    /// Every QR code of `pdf`, decoded as a phone would read it off the printed page: each page
    /// rendered at 150 dpi (pdftoppm) into `directory`, then read with zbarimg.
    static func decodedCodes(_ pdf: String, in directory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Self.tool("pdftoppm", ["-r", "150", "-png", pdf, directory + "/page"])
        var decoded: [String] = []
        for page in try FileManager.default.contentsOfDirectory(atPath: directory).filter({ $0.hasPrefix("page") }).sorted() {
            decoded += try Self.tool("zbarimg", ["--quiet", "--raw", directory + "/" + page]).split(separator: "\n").map(String.init)
        }
        return decoded
    }

    /// A fresh user name whose "Name …" line pdftotext reads back as written: Pango sets "ff" in
    /// the slip's name font as the ligature U+FB00, which pdftotext returns as that character,
    /// so a random hex name with "ff" (about one in forty) failed the name checks.
    static func username(_ prefix: String) -> String {
        ToolRunner.username(prefix).replacingOccurrences(of: "f", with: "g")
    }

    /// The text layer of `pdf` (pdftotext).
    static func text(_ pdf: String) throws -> String { try Self.tool("pdftotext", [pdf, "-"]) }

    /// Where tests leave pictures for people: XT_ARTIFACTS, else .build/test-artifacts.
    static let artifacts: String = {
        let path = ProcessInfo.processInfo.environment["XT_ARTIFACTS"] ?? Paths.root + "/.build/test-artifacts"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static func letters(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.isAlphabetic }))
    }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, 0o600), 0)
    }

    private func mode(_ path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
    }

    /// Runs a poppler or zbar tool (scripts/apt-packages.d/handout.txt installs them); its output.
    @discardableResult
    static func tool(_ name: String, _ args: [String]) throws -> String {
        let path = ["/usr/bin/", "/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else {
            XCTFail("\(name) is not installed: scripts/install-deps installs it (scripts/apt-packages.d/handout.txt)")
            throw CocoaError(.fileNoSuchFile)
        }
        let r = try Shell.run([path] + args, environment: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()])
        XCTAssertEqual(r.status, 0, "\(name) \(args): \(r.stderr)")
        return r.stdout
    }
}
