import Foundation
import XCTest

/// Every command line of README.md's "Use" block runs as written and exits 0, each against a
/// fresh private Prosody (open registration, `alice` its administrator) in a world where those
/// lines make sense: alice logged in and active, bob, bot and new@ existing, bob with an open
/// vCard and an avatar, the files the lines read (bio.txt, staff.csv, me.jpg, big.png) present, and a
/// `pass` that knows bot's password. Only `example.org` is replaced (by the server's domain),
/// and each program finds the server through a wrapper on PATH that adds `--server` and
/// `--ca-file` where the command takes them — what a real domain's SRV records would give.
/// scripts/test runs it in its first pass only (it brings its own servers).
final class ReadmeExamplesEndToEndTests: XCTestCase {
    /// The lines of the first ```sh block after "## Use", comments and blank lines as they are.
    static func examples() throws -> [String] {
        let readme = try String(contentsOfFile: Paths.root + "/README.md", encoding: .utf8)
        guard let use = readme.range(of: "\n## Use\n"),
              let open = readme.range(of: "```sh\n", range: use.upperBound..<readme.endIndex),
              let close = readme.range(of: "\n```", range: open.upperBound..<readme.endIndex) else {
            throw XCTSkip("README.md has no ```sh block under ## Use")
        }
        return readme[open.upperBound..<close.lowerBound].split(separator: "\n").map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    func testTheUseBlockHasTheExamplesThisTestKnows() throws {
        let lines = try Self.examples()
        XCTAssertGreaterThan(lines.count, 20)
        for word in ["xmpp-register", "xmpp-login", "xmpp-roster", "xmpp-vcard", "xmpp-avatar", "xmpp-adhoc"] {
            XCTAssertTrue(lines.contains { $0.contains(word) }, "no example of \(word)")
        }
    }

    func testEveryExampleRuns() throws {
        var failures: [String] = []
        for line in try Self.examples() {
            let world = try World(creating: Self.accountsCreated(by: line))
            defer { world.close() }
            let r = try world.run(line)
            if r.status != 0 { failures.append("\(line)\n  exit \(r.status): \(r.stderr.prefix(400))") }
            // A line whose comment promises JSON Lines prints them: at least one, each a JSON object.
            if line.contains("# ") && line.contains("JSON Lines") {
                let rows = r.stdout.split(separator: "\n")
                let objects = rows.filter { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] }
                if rows.isEmpty || objects.count != rows.count {
                    failures.append("\(line)\n  promises JSON Lines but printed: \(r.stdout.prefix(200))")
                }
            }
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }

    /// The README accounts a line registers itself, so the world must not have them yet.
    static func accountsCreated(by line: String) -> Set<String> {
        let words = line.split(separator: " ").map(String.init)
        guard words.first == "xmpp-register", words.count > 1, words[1].contains("@") else { return [] }
        return [String(words[1].split(separator: "@")[0])]
    }

    /// One private server and home directory, set up for the README's lines.
    private struct World {
        let server: TestServer
        let tools: ToolRunner
        let work: String
        let alicePassword = "alice-" + UUID().uuidString

        init(creating skipped: Set<String>) throws {
            server = try TestServer.startPrivate("prosody", ["--admin", "alice"])
            do {
                try server.require("register", "the README's accounts are registered in-band")
                tools = try ToolRunner(server: server)
                work = tools.home + "/work"
                try setUp(skipping: skipped)
            } catch {
                server.stop()
                throw error
            }
        }

        func close() {
            server.stop()
            try? FileManager.default.removeItem(atPath: tools.home)
        }

        private func jid(_ user: String) -> String { "\(user)@\(server.domain)" }

        private func tool(_ name: String, _ args: [String], password: String? = nil) throws {
            let r = try tools.run(name, args, password: password)
            guard r.status == 0 else {
                throw TestServerError.unusable("set-up '\(name) \(args.joined(separator: " "))' exited \(r.status): \(r.stderr)")
            }
        }

        private func setUp(skipping skipped: Set<String>) throws {
            let fm = FileManager.default
            let bin = tools.home + "/bin"
            for dir in [work, bin] { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) }
            // bob, bot, new and two staff accounts; alice last, so she is the active account.
            let passwords = ["bob": "bob-pw-1", "bot": "bot-pw-1", "new": "new-pw-1", "staff1": "s1-pw-1", "staff2": "s2-pw-1"]
            for user in ["bob", "bot", "new", "staff1", "staff2"] where !skipped.contains(user) {
                try tool("xmpp-register", [jid(user)] + tools.serverArgs + (user == "bot" ? [] : ["--login"]),
                         password: passwords[user])
            }
            try write("big.png", TestPNG.rgb(width: 400, height: 300))
            // Profiles shared with everyone (--access open), as a staff directory's are: alice is
            // no contact of theirs, and PEP nodes shared with presence would hide them from her.
            try tool("xmpp-vcard", ["set", "-a", jid("bob"), "--fullname", "Bob Builder", "--access", "open"])
            try tool("xmpp-avatar", ["set", work + "/big.png", "-a", jid("bob")])
            for user in ["staff1", "staff2"] {
                try tool("xmpp-vcard", ["set", "-a", jid(user), "--fullname", "Staff \(user.suffix(1))", "--access", "open"])
            }
            if !skipped.contains("alice") {
                try tool("xmpp-register", [jid("alice")] + tools.serverArgs + ["--login"], password: alicePassword)
            }

            try write("bio.txt", Data("Alice, who went down the rabbit hole.\nSecond line.\n".utf8))
            try write("staff.csv", Data("jid,password\n\(jid("staff1")),s1-pw-1\n\(jid("staff2")),s2-pw-1\n".utf8))
            try makeJPEG("me.jpg")
            // `pass show xmpp/bot` prints bot's password, as pass(1) would.
            try script(bin + "/pass", """
                #!/bin/sh
                [ "$1 $2" = "show xmpp/bot" ] && { echo \(passwords["bot"] ?? ""); exit 0; }
                echo "pass: not in the test store: $*" >&2; exit 1
                """)
            // Each program adds the server's address where its command takes --server.
            try ExampleShell.installToolWrappers(in: bin, server: server)
        }

        private func write(_ name: String, _ data: Data) throws {
            guard FileManager.default.createFile(atPath: work + "/" + name, contents: data) else {
                throw TestServerError.unusable("cannot write \(name)")
            }
        }

        private func script(_ path: String, _ text: String) throws { try ExampleShell.script(path, text) }

        private func makeJPEG(_ jpeg: String) throws {
            // cjpeg (libjpeg-turbo-progs, installed by scripts/install-deps) reads a PPM.
            var ppm = Data("P6\n64 48\n255\n".utf8)
            for y in 0..<48 { for x in 0..<64 { ppm.append(contentsOf: [UInt8(x * 4), UInt8(y * 5), 160]) } }
            let r = try Shell.run(["/usr/bin/cjpeg", "-quality", "90", "-outfile", work + "/" + jpeg], stdin: ppm)
            guard r.status == 0 else { throw TestServerError.unusable("cjpeg: \(r.stderr)") }
        }

        /// Runs one README line with bash (pipefail), in the work directory, under a 15 s limit
        /// that ends a line which runs until Ctrl-C (xmpp-roster watch) with SIGINT, as a user would.
        func run(_ line: String) throws -> RunResult {
            let text = line.replacingOccurrences(of: "example.org", with: server.domain)
            var env = tools.environment
            env["PATH"] = tools.home + "/bin:/usr/bin:/bin"
            // The password prompts of alice's own lines (register, login, passwd) are answered from
            // XMPP_PASSWORD; a line acting as another account (-a) uses that account's session.
            if !text.contains(" -a ") { env["XMPP_PASSWORD"] = alicePassword }
            return try Shell.run(["/usr/bin/timeout", "--preserve-status", "-s", "INT", "15",
                                  "/bin/bash", "-o", "pipefail", "-c", "cd \"$1\" && eval \"$2\"", "readme", work, text],
                                 environment: env, timeout: 60)
        }
    }
}
