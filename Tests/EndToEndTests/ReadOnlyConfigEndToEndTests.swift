import Foundation
import XCTest

/// A configuration directory the tools cannot write (a read-only home, a container's read-only
/// mount) with a FAST session: commands still work, saying what they cannot store and why.
/// The directory is bind-mounted read-only in a private mount namespace (`unshare --mount`),
/// so the mount ends with the command and is never seen by another test: this needs root.
final class ReadOnlyConfigEndToEndTests: XCTestCase {
    func testAFASTSessionWorksFromAReadOnlyConfigDirectory() throws {
        try Self.requireRoot()
        let (t, jid, password) = try ToolRunner.withAccount("ro") { try $0.require("fast", "FAST tokens") }
        let login = try t.run("xmpp-login", [jid, "--json"] + t.serverArgs, password: password)
        XCTAssertEqual(login.status, 0, login.stderr)
        let config = t.home + "/config/xmpp-tools"
        let session = config + "/sessions/" + jid
        let stored = try Data(contentsOf: URL(fileURLWithPath: session))

        // Run after run: the token the file holds keeps working though no rotation is stored.
        for round in 1...3 {
            let status = try readOnly(t, config, "xmpp-login", ["status", "--json"])
            XCTAssertEqual(status.status, 0, "round \(round): \(status.stderr)")
            XCTAssertEqual((try? ToolRunner.json(status) as? [String: Any])?["session_kind"] as? String, "fast", status.stdout)
            // Prosody 13 rotates the token on every use here, so each run has a token it cannot
            // keep; ejabberd 24.12 does not rotate, and there is nothing to warn about.
            if t.server.kind.hasPrefix("prosody") || !status.stderr.isEmpty {
                XCTAssertTrue(status.stderr.contains("warning: the FAST token"), status.stderr)
                XCTAssertTrue(status.stderr.contains(config), "names the directory: \(status.stderr)")
                XCTAssertTrue(status.stderr.contains("Read-only file system"), "says why: \(status.stderr)")
            }
        }
        let quiet = try readOnly(t, config, "xmpp-login", ["status", "-q"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stderr, "", "-q prints no warnings")
        for (tool, args) in [("xmpp-vcard", ["get"]), ("xmpp-roster", ["list"])] {
            let r = try readOnly(t, config, tool, args)
            XCTAssertEqual(r.status, 0, "\(tool) \(args): \(r.stderr)")
        }
        // A change of the own vCard goes ahead without its lock, saying so.
        let set = try readOnly(t, config, "xmpp-vcard", ["set", "--nickname", "Ro"])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertTrue(set.stderr.contains("without the lock") && set.stderr.contains("Read-only file system"), set.stderr)
        // A log-out there would end the token yet keep the file: refused before reaching the server.
        let logout = try readOnly(t, config, "xmpp-login", ["logout"])
        XCTAssertEqual(logout.status, 1, logout.stderr)
        XCTAssertTrue(logout.stderr.contains("Read-only file system"), logout.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: session)), stored, "nothing was written")

        // Writable again: the session file's token still logs in.
        let after = try t.run("xmpp-login", ["status"])
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertEqual(after.stderr, "")
        XCTAssertTrue(try t.run("xmpp-vcard", ["get", "--json"]).stdout.contains("\"Ro\""), "the change was published")
    }

    /// `tool args…` with `directory` mounted read-only for it alone.
    private func readOnly(_ t: ToolRunner, _ directory: String, _ tool: String, _ args: [String]) throws -> RunResult {
        let script = #"mount --bind -o ro "$0" "$0" || exit 99; exec "$@""#
        return try Shell.run(["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script,
                              directory, Paths.binaries + "/" + tool] + args, environment: t.environment)
    }

    /// A read-only bind mount needs root: skipped without it, a failure under CI=true.
    static func requireRoot() throws {
        guard getuid() != 0 else { return }
        if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("CI=true: a read-only bind mount needs root") }
        throw XCTSkip("a read-only bind mount needs root")
    }
}
