import Foundation
import XCTest

/// A private server with in-band registration closed and one administrator (`boss`), of the
/// kind XT_SERVER names (prosody by default), started once per test process and stopped at its
/// exit: the setting of every provisioning test (XEP-0050, XEP-0133, invites).
final class AdminServer: @unchecked Sendable {
    let server: TestServer
    let adminJID: String
    let adminPassword = "boss-" + UUID().uuidString

    nonisolated(unsafe) private static var cached: Result<AdminServer, Error>?
    nonisolated(unsafe) private static var cachedInvites: Result<AdminServer, Error>?
    nonisolated(unsafe) private static var cachedDefaults: Result<AdminServer, Error>?
    private static let lock = NSLock()

    private init(server: TestServer) throws {
        self.server = server
        adminJID = "boss@" + server.domain
        do {
            // jabberd2 has neither XEP-0133 commands nor a control tool: these tests do not apply there.
            try server.require("admin-commands", "XEP-0133 administration")
            try server.require("ctl-register", "the administrator is registered with the server's own tool")
            try ctl(["register", "boss", server.domain, adminPassword])
        } catch {
            server.stop()
            throw error
        }
    }

    /// The shared admin server (a skip, or under CI=true a failure, when none can run).
    static func require() throws -> AdminServer {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return try cached.get() }
        let kind = ProcessInfo.processInfo.environment["XT_SERVER"] ?? "prosody"
        let result = Result { try AdminServer(server: try TestServer.startPrivate(kind, ["--registration", "closed", "--admin", "boss"], everyPass: true)) }
        cached = result
        if case .success(let s) = result {
            atexit { if let dir = try? AdminServer.cached?.get().server.directory {
                _ = try? Shell.run([Paths.root + "/scripts/test-server", "stop", dir], timeout: 60)
            } }
            _ = s
        }
        return try result.get()
    }

    /// A Prosody with registration by invitation only (mod_invites, invites_adhoc,
    /// invites_register) and the administrator `boss`: the servers this machine runs that have
    /// XEP-0401 (ejabberd 23.01 has no invites).
    static func requireInvites() throws -> AdminServer {
        lock.lock()
        defer { lock.unlock() }
        if let cachedInvites { return try cachedInvites.get() }
        let result = Result { try AdminServer(server: try TestServer.startPrivate("prosody", ["--registration", "closed", "--admin", "boss", "--invites"])) }
        cachedInvites = result
        if case .success = result {
            atexit { if let dir = try? AdminServer.cachedInvites?.get().server.directory {
                _ = try? Shell.run([Paths.root + "/scripts/test-server", "stop", dir], timeout: 60)
            } }
        }
        return try result.get()
    }

    /// The pass's server kind at its own default configuration (`--defaults`) with the
    /// administrator `boss`: what an administrator who installed the package has. Only in a
    /// `--defaults` pass of scripts/test (XT_DEFAULTS=1), so other passes do not repeat it.
    /// `inAnyPass`: also outside the `--defaults` passes (the sync tests start ejabberd 24.12 at its
    /// defaults in the ejabberd24 pass, which CI runs, where no `--defaults` pass of it is).
    static func requireDefaults(inAnyPass: Bool = false) throws -> AdminServer {
        guard inAnyPass || ProcessInfo.processInfo.environment["XT_DEFAULTS"] == "1" else {
            throw XCTSkip("runs in the --defaults passes (XT_DEFAULTS=1), against the server's own configuration")
        }
        lock.lock()
        defer { lock.unlock() }
        if let cachedDefaults { return try cachedDefaults.get() }
        let kind = ProcessInfo.processInfo.environment["XT_SERVER"] ?? "prosody"
        let result = Result { try AdminServer(server: try TestServer.startPrivate(kind, ["--defaults", "--admin", "boss"], everyPass: true)) }
        cachedDefaults = result
        if case .success = result {
            atexit { if let dir = try? AdminServer.cachedDefaults?.get().server.directory {
                _ = try? Shell.run([Paths.root + "/scripts/test-server", "stop", dir], timeout: 60)
            } }
        }
        return try result.get()
    }

    /// `prosodyctl` / `ejabberdctl` on this instance.
    @discardableResult
    func ctl(_ args: [String]) throws -> RunResult {
        let r = try Shell.run([Paths.root + "/scripts/test-server", "ctl", server.directory] + args, timeout: 60)
        guard r.status == 0 else { throw TestServerError.unusable("ctl \(args.first ?? "") failed: \(r.stderr)") }
        return r
    }

    /// A fresh account made by the server's own tool (registration is closed), with its password.
    func makeAccount(_ prefix: String) throws -> (jid: String, password: String) {
        let user = ToolRunner.username(prefix)
        let password = "pw-" + UUID().uuidString
        try ctl(["register", user, server.domain, password])
        return (user + "@" + server.domain, password)
    }

    /// A tool runner whose home has the administrator logged in.
    func adminRunner() throws -> ToolRunner { try runner(as: adminJID, password: adminPassword) }

    /// A runner in a fresh home whose active account is `jid`, logged in with `password`.
    func runner(as jid: String, password: String) throws -> ToolRunner {
        let t = try ToolRunner(server: server)
        let r = try logIn(t, jid, password)
        XCTAssertEqual(r.status, 0, r.stderr)
        return t
    }

    /// `xmpp-login JID` in `t`'s home: with cached SCRAM keys, or on a server that stores plain
    /// passwords (ejabberd's defaults) with a password command, the way xmpp-login asks for there.
    private func logIn(_ t: ToolRunner, _ jid: String, _ password: String) throws -> RunResult {
        guard !server.has("scram-session") else { return try t.run("xmpp-login", [jid] + t.serverArgs, password: password) }
        let file = t.home + "/password-" + String(UUID().uuidString.prefix(8))
        try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(chmod(file, 0o600), 0)
        return try t.run("xmpp-login", [jid, "--password-command", "cat '\(file)'"] + t.serverArgs)
    }

    /// Whether `jid` logs in with `password` (through xmpp-login in a throwaway home).
    func logsIn(_ jid: String, _ password: String) throws -> Bool {
        return try logIn(try ToolRunner(server: server), jid, password).status == 0
    }
}

extension AdminServer {
    /// The accounts the server holds: Prosody's account files, ejabberd's registered_users.
    func accountCount() throws -> Int {
        if server.kind.hasPrefix("prosody") { return try server.accountCount() }
        return try ctl(["registered_users", server.domain]).stdout.split(separator: "\n").count
    }
}
