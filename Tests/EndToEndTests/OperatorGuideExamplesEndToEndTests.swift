import Foundation
import XCTest

/// The shell lines of the operator's guide (xmpp-tools-provisioning(7), its literal blocks as
/// the checked-in page has them) run as printed against a real server and real output: only
/// school.example (and admin@school.example) are replaced by the test server's, and each
/// program finds the server through a wrapper on PATH that adds --server and --ca-file, as a
/// real domain's SRV records would. Blocks that tell one story (the same --report) share a home
/// and a school.csv; between lines, the school changes as the guide's text says it does (new
/// pupils, a renamed pupil, a leaver). Every line must succeed (sync: 0 or 13, its documented
/// "changes" status), and the pipelines over the tools' output must print what the guide says
/// they print (the invalid rows with their line numbers, the leavers, the jid and invite URI).
/// A block this test cannot run must be named in `notRunHere` with the reason.
final class OperatorGuideExamplesEndToEndTests: XCTestCase {
    /// Blocks not run here, by a word they contain, and why.
    static let notRunHere: [(word: String, why: String)] = [
        ("shared-groups", "writes /etc/prosody and reloads the system's server or needs ejabberd: SharedGroups*EndToEndTests cover the commands"),
        ("--rosters shared", "needs ejabberd's API or writes /etc/prosody: SyncSharedRostersEndToEndTests cover these lines' sync"),
    ]

    /// The literal blocks of the guide, each a list of shell lines (continuations joined).
    static func blocks() throws -> [[String]] {
        let page = try String(contentsOfFile: Paths.root + "/man/xmpp-tools-provisioning.7", encoding: .utf8)
        var blocks: [[String]] = []
        var current: [String]?
        for raw in page.components(separatedBy: "\n") {
            if raw.hasPrefix(".Bd -literal") { current = []; continue }
            if raw.hasPrefix(".Ed"), let block = current { blocks.append(joined(block)); current = nil; continue }
            current?.append(unescaped(raw))
        }
        return blocks
    }

    /// mdoc's escapes as the shell line reads them.
    static func unescaped(_ line: String) -> String {
        line.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\e", with: "\\")
            .replacingOccurrences(of: "\\&", with: "").replacingOccurrences(of: "\\[u2026]", with: "…")
    }

    /// A line ending in | or \ continues on the next.
    static func joined(_ lines: [String]) -> [String] {
        var out: [String] = []
        var pending = ""
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasSuffix("|") { pending += trimmed + " "; continue }
            if trimmed.hasSuffix("\\") { pending += String(trimmed.dropLast()) + " "; continue }
            out.append(pending + trimmed)
            pending = ""
        }
        return out
    }

    /// The directory pipelines the guide's prose gives ("ldapsearch -LLL … | xmpp-register sync -
    /// …, from a cron job"): each up to the first comma followed by a space, with ldapsearch's
    /// output (elided in the text) read from people.ldif, what a directory of the school returns.
    static func prosePipelines() throws -> [String] {
        let page = unescaped(try String(contentsOfFile: Paths.root + "/man/xmpp-tools-provisioning.7", encoding: .utf8))
        var out: [String] = []
        var rest = page[...]
        while let start = rest.range(of: "ldapsearch -LLL … | ") {
            let tail = rest[start.upperBound...]
            let end = tail.range(of: ", ")?.lowerBound ?? tail.endIndex
            out.append("cat people.ldif | " + tail[..<end])
            rest = tail[end...]
        }
        return out
    }

    func testTheGuideHasTheBlocksThisTestKnows() throws {
        XCTAssertEqual(try Self.prosePipelines().count, 1, "the LDAP line of the school year")
        let blocks = try Self.blocks()
        XCTAssertGreaterThan(blocks.count, 8)
        let pipelines = blocks.joined().filter { $0.contains("| ") || $0.contains("$?") }
        XCTAssertGreaterThanOrEqual(pipelines.count, 4, "the jq, cut and cron lines: \(pipelines)")
    }

    func testEveryLineOfTheGuideRunsAsPrinted() throws {
        let admin = try SyncEndToEndTests.server()
        guard admin.server.kind.hasPrefix("prosody") else {
            throw XCTSkip("the guide's examples show Prosody 13 (disable-user, invites): run in its --defaults pass")
        }
        var worlds: [String: World] = [:]
        var failures: [String] = []
        for line in try Self.prosePipelines() {
            let world = try World(admin: admin)
            let r = try world.run(line, previousStatus: 0)
            failures += world.check(line, r).map { "\(line)\n  \($0)\n  stderr: \(r.stderr.prefix(600))" }
            // Groups alone make no rosters: sync says so, with the way to get class rosters.
            if !r.stderr.contains("no contacts column") { failures.append("\(line)\n  no warning about the missing contacts: \(r.stderr.prefix(600))") }
        }
        for (index, block) in try Self.blocks().enumerated() {
            if Self.notRunHere.contains(where: { skip in block.contains { $0.contains(skip.word) } }) { continue }
            // Blocks of one story share their home: the same --report, or none.
            let key = block.lazy.compactMap(Self.reportName).first ?? "block \(index)"
            if worlds[key] == nil { worlds[key] = try World(admin: admin) }
            guard let world = worlds[key] else { continue }
            var previous: Int32 = 0
            for line in block where !line.hasPrefix("#") || line.contains("weeks later") {
                try world.prepare(before: line)
                if line.hasPrefix("#") { continue }
                let r = try world.run(line, previousStatus: previous)
                previous = r.status
                let problems = world.check(line, r)
                failures += problems.map { "\(line)\n  \($0)\n  stderr: \(r.stderr.prefix(600))" }
            }
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }

    /// The file a line's --report names.
    static func reportName(_ line: String) -> String? {
        let words = line.split(separator: " ").map(String.init)
        guard let i = words.firstIndex(of: "--report"), i + 1 < words.count else { return nil }
        return words[i + 1]
    }

    /// One home with the administrator logged in, a work directory with the files the guide's
    /// lines read, and wrappers for the programs and for lp, mail and sudo.
    private final class World {
        let admin: AdminServer
        let tools: ToolRunner
        let work: String
        let tag = String(ToolRunner.username("").prefix(5))
        /// school.csv's pupils, by class.
        var classes: [String: [String]] = [:]
        var names: [String: String] = [:]
        /// Who left in the leavers' block.
        var leaver: String?

        init(admin: AdminServer) throws {
            self.admin = admin
            tools = try admin.adminRunner()
            work = tools.home + "/work"
            let bin = tools.home + "/bin"
            for dir in [work, bin] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
            try ExampleShell.installToolWrappers(in: bin, server: admin.server)
            // lp and mail record what they were given; sudo runs the command as it is.
            try script(bin + "/lp", "#!/bin/sh\necho \"lp $*\" >> \"$HOME/printed\"")
            try script(bin + "/mail", "#!/bin/sh\n{ echo \"mail $*\"; cat; } >> \"$HOME/mailed\"")
            try script(bin + "/sudo", "#!/bin/sh\nexec \"$@\"")
            classes = ["Class 5A": (0..<3).map { "gd\(tag)a\($0)" }, "Class 5B": (0..<2).map { "gd\(tag)b\($0)" }]
            for (c, pupils) in classes { for (i, p) in pupils.enumerated() { names[p] = "Pupil \(i) of \(c)" } }
            try writeSchool()
            try write("class.csv", "username,fullname\ngd\(tag)c0,Ann Smith\ngd\(tag)c1,Bob Jones\n")
            // The school's directory, as ldapsearch -LLL prints its people.
            try write("people.ldif", (0..<3).map { i in
                "dn: uid=gd\(tag)l\(i),ou=People,dc=school,dc=example\nuid: gd\(tag)l\(i)\ncn: Ldap Pupil \(i)\nou: Class 5A\n\n"
            }.joined())
        }

        func writeSchool() throws {
            var text = "username,fullname,groups,contacts\n"
            for (c, pupils) in classes.sorted(by: { $0.key < $1.key }) {
                for p in pupils { text += "\(p),\(names[p] ?? p),\(c),\(c)\n" }
            }
            try write("school.csv", text)
        }

        /// What the guide's text says happened before `line`.
        func prepare(before line: String) throws {
            if line.contains("select(.status==\"invalid\")") {
                // A class list as the guide's CSV section has it (usernames and passwords), with one
                // row that cannot be an account, on line 3.
                try write("class.csv", "username,password,fullname\ngd\(tag)c0,pw-\(tag)-0,Ann Smith\nbad user,pw-\(tag)-1,Bad Row\n"
                          + "gd\(tag)c1,pw-\(tag)-2,Bob Jones\n")
            } else if line.hasPrefix("# weeks later") || line.contains("--invite --report-by-group") {
                let pupil = "gd\(tag)n\(classes["Class 5A"]?.count ?? 0)"
                classes["Class 5A", default: []].append(pupil)
                names[pupil] = "New Pupil \(pupil.suffix(1))"
                try writeSchool()
            } else if line.contains("--dry-run > plan.txt") {
                if let first = classes["Class 5B"]?.first { names[first] = "Renamed Pupil" }
                try writeSchool()
            } else if line.contains(".leavers[]") {
                leaver = classes["Class 5B"]?.popLast()
                try writeSchool()
            }
        }

        /// Runs `line` as the guide prints it, with bash in the work directory; `$?` is the
        /// status of the line before, as in the shell the guide's lines are typed into.
        func run(_ line: String, previousStatus: Int32) throws -> RunResult {
            let text = line.replacingOccurrences(of: "admin@school.example", with: admin.adminJID)
                .replacingOccurrences(of: "school.example", with: admin.server.domain)
            var env = tools.environment
            env["PATH"] = tools.home + "/bin:/usr/bin:/bin"
            env["XMPP_PASSWORD"] = admin.adminPassword
            return try Shell.run(["/bin/bash", "-c", "cd \"$1\" && (exit $2); eval \"$3\"", "guide", work, String(previousStatus), text],
                                 environment: env, timeout: 120)
        }

        /// What is wrong with `r`, the outcome of `line`.
        func check(_ line: String, _ r: RunResult) -> [String] {
            let domain = admin.server.domain
            var problems: [String] = []
            let sync = (line.hasPrefix("xmpp-register sync") && !line.contains("|")) || line.hasPrefix("cat people.ldif | xmpp-register sync")
            if !(r.status == 0 || (sync && r.status == 13)) { problems.append("exit status \(r.status)") }
            let out = r.stdout.split(separator: "\n").map(String.init)
            if line.contains("select(.status==\"invalid\")") {
                // The line number and the reason of the one invalid row.
                if out.count != 1 || !(out.first ?? "").hasPrefix("3 ") || (out.first ?? "").count < 5 {
                    problems.append("printed \(out), not the invalid row 3 with its reason")
                }
            }
            if line.contains(".leavers[]") {
                if out != ["disable \(leaver ?? "?")@\(domain)"] { problems.append("printed \(out), not the leaver's 'disable JID'") }
            }
            if line.hasPrefix("tail -n +2 invites.csv") {
                let ok = out.count == 2 && out.allSatisfy { row in
                    let f = row.split(separator: ",").map(String.init)
                    return f.count == 2 && f[0].hasSuffix("@" + domain) && f[1].hasPrefix("xmpp:\(domain)?register;preauth=")
                }
                if !ok { problems.append("printed \(out), not each row's jid and invite URI") }
            }
            if line.contains("[ $? = 13 ] && mail") {
                let mailed = (try? String(contentsOfFile: tools.home + "/mailed", encoding: .utf8)) ?? ""
                if !mailed.contains("mail -s xmpp: sync plan") || !mailed.contains("Renamed Pupil") {
                    problems.append("the plan was not mailed: \(mailed.prefix(300))")
                }
            }
            if line.contains("&& lp ") {
                let printed = (try? String(contentsOfFile: tools.home + "/printed", encoding: .utf8)) ?? ""
                let pdf = line.split(separator: " ").last.map(String.init) ?? "?"
                if !printed.contains("lp " + pdf) || !FileManager.default.fileExists(atPath: work + "/" + pdf) {
                    problems.append("\(pdf) was not printed")
                }
            }
            return problems
        }

        private func write(_ name: String, _ text: String) throws {
            guard FileManager.default.createFile(atPath: work + "/" + name, contents: Data(text.utf8)) else {
                throw TestServerError.unusable("cannot write \(name)")
            }
        }

        private func script(_ path: String, _ text: String) throws { try ExampleShell.script(path, text) }
    }
}
