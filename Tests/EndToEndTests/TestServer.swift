import Foundation
import XCTest

/// A private XMPP server for the end-to-end tests, started once per test process by the
/// project's own `scripts/test-server` (or taken from XT_* variables when `.ci/run` started it).
/// Under CI=true a server that cannot be started fails the tests; elsewhere they are skipped.
final class TestServer: @unchecked Sendable {
    let kind: String
    let domain: String
    let host: String
    let port: Int
    let tlsPort: Int
    let caFile: String
    let directory: String
    /// What this instance offers (XT_FEATURES from scripts/test-server; scripts/README.md
    /// defines each name). Tests that depend on a server difference ask for it by name.
    let features: Set<String>
    /// A cluster's nodes' STARTTLS ports, node 1 first (XT_NODE_PORTS; `port` is node 1's);
    /// empty for a single server.
    let nodePorts: [Int]

    private init(env: [String: String]) throws {
        guard let port = env["XT_PORT"].flatMap(Int.init), let tlsPort = env["XT_TLS_PORT"].flatMap(Int.init),
              let ca = env["XT_CA_FILE"], let dir = env["XT_DIR"] else {
            throw TestServerError.unusable("incomplete XT_* settings: \(env)")
        }
        kind = env["XT_SERVER"] ?? "prosody"
        domain = env["XT_DOMAIN"] ?? "localhost"
        host = env["XT_HOST"] ?? "127.0.0.1"
        self.port = port
        self.tlsPort = tlsPort
        caFile = ca
        directory = dir
        features = Set((env["XT_FEATURES"] ?? "").split(separator: ",").map(String.init))
        // The script's %q quoting of "p1 p2" reaches launch() as "p1\ p2".
        nodePorts = (env["XT_NODE_PORTS"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\\" }).compactMap { Int($0) }
    }

    /// Whether the server offers `feature` (a name from XT_FEATURES).
    func has(_ feature: String) -> Bool { features.contains(feature) }

    /// Skips a test that needs `feature` on a server without it, naming both: the capability
    /// list decides, documented per server kind in scripts/README.md (never a silent skip; the
    /// tests of what the tools say on such servers are in ServerCapabilityEndToEndTests).
    func require(_ feature: String, _ why: String = "") throws {
        guard !has(feature) else { return }
        throw XCTSkip("\(kind) lacks \(feature)\(why.isEmpty ? "" : " (" + why + ")") (XT_FEATURES: \(features.sorted().joined(separator: ",")))")
    }

    /// Prosody's `vcard_legacy` stores vcard-temp as vCard4 and drops ORGUNIT, EMAIL/PREF, TEL
    /// types and unknown fields (and adds INTERNET to emails); ejabberd's mod_vcard keeps the
    /// card as sent. Tests expect the tool to report exactly what each server dropped.
    var dropsVCardFields: Bool { has("vcard-lossy") }

    /// `--server` value for STARTTLS.
    var server: String { "\(host):\(port)" }
    /// `--server` value for direct TLS.
    var directTLSServer: String { "\(host):\(tlsPort)" }

    nonisolated(unsafe) private static var cached: Result<TestServer, Error>?
    private static let lock = NSLock()

    /// The shared server, starting it on first use.
    static func shared() throws -> TestServer {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return try cached.get() }
        let result = Result { try start() }
        cached = result
        return try result.get()
    }

    /// The server, or a skip (a failure under CI=true) when none can run here.
    static func require() throws -> TestServer {
        do {
            return try shared()
        } catch {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                XCTFail("CI=true and no test server: \(error)")
                throw error
            }
            throw XCTSkip("no test server: \(error)")
        }
    }

    /// A private server of `kind` started with `options` (e.g. `--tls12`), which the caller
    /// stops with `stop()`. Under CI=true failing to start it fails the test.
    ///
    /// A test that names its server's kind itself does the same in every pass of scripts/test's
    /// matrix, whatever the pass's server: it runs in the first pass only (scripts/test sets
    /// XT_LATER_PASS=1 in the others), as the README's examples do. `kind` taken from the pass
    /// (`XT_SERVER`, the cluster's) is `everyPass`.
    static func startPrivate(_ kind: String, _ options: [String] = [], everyPass: Bool = false) throws -> TestServer {
        if !everyPass { try skipInLaterPasses("starts its own \(kind) server") }
        do {
            return try launch(kind, options)
        } catch {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                XCTFail("CI=true and no \(kind) server: \(error)")
                throw error
            }
            throw XCTSkip("no \(kind) server: \(error)")
        }
    }

    /// A skip in the later passes of scripts/test's matrix (XT_LATER_PASS=1), for a test whose
    /// servers are private ones of kinds it names itself. Thrown inside an assertion's
    /// autoclosure a skip counts as a failure: such tests call this in their setUp.
    static func skipInLaterPasses(_ why: String) throws {
        if ProcessInfo.processInfo.environment["XT_LATER_PASS"] == "1" {
            throw XCTSkip("\(why) whatever the pass's server: it ran in the matrix's first pass")
        }
    }

    private static func launch(_ kind: String, _ options: [String]) throws -> TestServer {
        let result = try Shell.run([Paths.root + "/scripts/test-server", "start", kind] + options, timeout: 120)
        guard result.status == 0 else {
            throw TestServerError.unusable("scripts/test-server start \(kind) failed: \(result.stderr)")
        }
        var vars: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            var value = String(line[line.index(after: eq)...])
            if value.hasPrefix("'") && value.hasSuffix("'") && value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            vars[String(line[..<eq])] = value
        }
        return try TestServer(env: vars)
    }

    private static func start() throws -> TestServer {
        let env = ProcessInfo.processInfo.environment
        if env["XT_PORT"] != nil { return try TestServer(env: env) }
        let server = try launch(env["XT_SERVER"] ?? "prosody", [])
        atexit {
            if let dir = try? TestServer.cached?.get().directory {
                _ = try? Shell.run([Paths.root + "/scripts/test-server", "stop", dir], timeout: 60)
            }
        }
        return server
    }

    /// Restarts the server (same ports and data).
    func restart() throws {
        let r = try Shell.run([Paths.root + "/scripts/test-server", "restart", directory], timeout: 120)
        guard r.status == 0 else { throw TestServerError.unusable("restart failed: \(r.stderr)") }
    }

    /// Stops the server (tests of "server down" restart it afterwards).
    func stop() {
        _ = try? Shell.run([Paths.root + "/scripts/test-server", "stop", directory], timeout: 60)
    }

    /// `--server` and `--ca-file` for this server.
    var serverArgs: [String] { ["--server", server, "--ca-file", caFile] }

    /// Creates and logs in a fresh account on this server (whichever `t` points at) in `t`'s home;
    /// returns its JID.
    func account(_ t: ToolRunner, _ prefix: String) throws -> String {
        try t.on(self).makeAccount(prefix, login: true).0
    }

    /// Tests that need fresh accounts of their own: open, unthrottled in-band registration, or
    /// the server's control tool (which works where registration is throttled or closed).
    func requireAccounts() throws {
        if has("register") && has("register-unthrottled") { return }
        if has("ctl-register") { return }
        try require("register", "accounts are made by in-band registration")
        try require("register-unthrottled", "each test registers fresh accounts")
    }

    /// Tests that log in with a password and expect the session to hold SCRAM keys (the session
    /// model itself); tests that only need a logged-in account use `ToolRunner.makeAccount(login:)`,
    /// which falls back to a password-command session where the keys cannot be cached.
    func requireLoginAccounts() throws {
        try require("register", "accounts are made by in-band registration")
        try require("register-unthrottled", "each test registers fresh accounts")
        try require("scram-session", "the test checks a cached SCRAM session")
    }

    /// Creates `user` with `password`: through the server's control tool where there is one
    /// (it works with registration closed or throttled), else by in-band registration.
    func provision(_ t: ToolRunner, _ user: String, _ password: String) throws {
        if has("ctl-register") {
            let r = try Shell.run([Paths.root + "/scripts/test-server", "ctl", directory, "register", user, domain, password], timeout: 60)
            XCTAssertEqual(r.status, 0, "ctl register failed: \(r.stderr)")
        } else {
            try require("register", "no control tool either")
            let r = try t.run("xmpp-register", [t.jid(user)] + serverArgs, password: password)
            XCTAssertEqual(r.status, 0, "register failed: \(r.stderr)")
        }
    }

    /// Edits a private Prosody's config (takes effect at the next restart).
    func configure(replacing old: String, with new: String) throws {
        let path = directory + "/prosody.cfg.lua"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard text.contains(old) else { throw TestServerError.unusable("\(path) has no '\(old)'") }
        try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Accounts on a private Prosody's disk (`data/localhost/accounts/*.dat`).
    func accountCount() throws -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/data/localhost/accounts")) ?? []
        return names.filter { $0.hasSuffix(".dat") }.count
    }
}

enum TestServerError: Error, CustomStringConvertible {
    case unusable(String)
    var description: String {
        switch self { case .unusable(let s): return s }
    }
}
