import Foundation
import XCTest

/// Runs the built tools as a user would, each test with its own private config directory.
struct ToolRunner {
    let server: TestServer
    let home: String

    init(server: TestServer) throws {
        self.server = server
        home = NSTemporaryDirectory() + "xt-home-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    private init(server: TestServer, home: String) {
        self.server = server
        self.home = home
    }

    /// The same home, pointed at another server (accounts on a private instance).
    func on(_ other: TestServer) -> ToolRunner { ToolRunner(server: other, home: home) }

    /// A fresh username (local part) unique to this run.
    static func username(_ prefix: String = "u") -> String {
        prefix + String(UUID().uuidString.prefix(8)).lowercased()
    }

    /// `name@domain`.
    func jid(_ user: String) -> String { "\(user)@\(server.domain)" }

    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in ["XMPP_ACCOUNT", "XMPP_PASSWORD", "XDG_CACHE_HOME", "XDG_STATE_HOME"] { env[key] = nil }
        env["HOME"] = home
        env["XDG_CONFIG_HOME"] = home + "/config"
        env["XDG_CACHE_HOME"] = home + "/cache"
        env["XDG_STATE_HOME"] = home + "/state"
        return env
    }

    /// Runs `tool args…`; `password` goes through --password-stdin when given.
    @discardableResult
    func run(_ tool: String, _ args: [String], password: String? = nil, stdin: String? = nil,
             env extra: [String: String] = [:], timeout: TimeInterval = 60) throws -> RunResult {
        var argv = [Paths.binaries + "/" + tool] + args
        var input = stdin.map { Data($0.utf8) }
        if let password {
            argv.append("--password-stdin")
            input = Data((password + "\n").utf8)
        }
        var env = environment
        for (k, v) in extra { env[k] = v }
        return try Shell.run(argv, stdin: input, environment: env, timeout: timeout)
    }

    /// The options that point a tool at the test server and trust its certificate.
    var serverArgs: [String] { ["--server", server.server, "--ca-file", server.caFile] }

    /// The same for the server's direct-TLS port (XEP-0368).
    var directTLSArgs: [String] { ["--server", server.directTLSServer, "--direct-tls", "--ca-file", server.caFile] }

    /// Creates a fresh account and returns (jid, password): by in-band registration where it is
    /// open and unthrottled, else through the server's control tool. `login` leaves a session in
    /// this home (see `logIn`).
    func makeAccount(_ prefix: String = "u", login: Bool = false) throws -> (String, String) {
        let user = ToolRunner.username(prefix)
        let password = "pw-" + UUID().uuidString
        try createAccount(user, password, login: login)
        return (jid(user), password)
    }

    /// A runner on the test server with a fresh account (jid, password), once `requirement`
    /// holds there (it throws XCTSkip where the server lacks what the test needs); with
    /// `session`, logged in with `--session session`.
    static func withAccount(_ prefix: String, session: String? = nil,
                            requiring requirement: (TestServer) throws -> Void = { _ in }) throws -> (ToolRunner, String, String) {
        let server = try TestServer.require()
        try requirement(server)
        let t = try ToolRunner(server: server)
        let (jid, password) = try t.makeAccount(prefix)
        if let session {
            let login = try t.run("xmpp-login", [jid, "--session", session, "-q"] + t.serverArgs, password: password)
            XCTAssertEqual(login.status, 0, "login --session \(session): \(login.stderr)")
        }
        return (t, jid, password)
    }

    /// Creates `user` with `password` as `makeAccount` does.
    func createAccount(_ user: String, _ password: String, login: Bool) throws {
        try server.requireAccounts()
        if server.has("register") && server.has("register-unthrottled") {
            let once = login && server.has("scram-session")
            let args = [jid(user)] + serverArgs + (once ? ["--login"] : [])
            var r = try run("xmpp-register", args, password: password)
            var loggedIn = once
            if r.status != 0 && r.stderr.contains("internal-server-error") {
                // Set-up, not what the test is about: jabberd2 2.7 closes a few streams with this
                // error (scripts/README.md). Once more; "exists" then means the first one created it.
                usleep(200_000)
                r = try run("xmpp-register", args, password: password)
                if r.status == 5 { r.status = 0; loggedIn = false }
            }
            XCTAssertEqual(r.status, 0, "register failed: \(r.stderr)")
            if login && !loggedIn { try logIn(jid(user), password) }
        } else {
            try server.provision(self, user, password)
            if login { try logIn(jid(user), password) }
        }
    }

    /// Logs `jid` in as a user of this server would: cached SCRAM keys where the server's salt is
    /// stable (`scram-session`), else a password-command session whose command prints the
    /// password from a 0600 file in this home (the password is never on a command line). `args`
    /// point at the server (`serverArgs` when nil); the login must succeed.
    func logIn(_ jid: String, _ password: String, _ args: [String]? = nil,
               file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try login(jid, password, args ?? serverArgs)
        XCTAssertEqual(r.status, 0, "login failed: \(r.stderr)", file: file, line: line)
    }

    /// `xmpp-login JID ARGS…` with the password on standard input where SCRAM keys can be cached,
    /// else through a password command (see `logIn`).
    @discardableResult
    func login(_ jid: String, _ password: String, _ args: [String]) throws -> RunResult {
        if server.has("scram-session") { return try run("xmpp-login", [jid] + args, password: password) }
        return try run("xmpp-login", [jid, "--password-command", try passwordCommand(jid, password)] + args)
    }

    /// A command printing `password`, kept in a 0600 file of this home named after `jid`.
    func passwordCommand(_ jid: String, _ password: String) throws -> String {
        let dir = home + "/passwords"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = dir + "/" + jid
        guard FileManager.default.createFile(atPath: path, contents: Data((password + "\n").utf8), attributes: [.posixPermissions: 0o600]) else {
            throw TestServerError.unusable("cannot write \(path)")
        }
        return "cat '\(path)'"
    }

    /// Parses stdout as JSON.
    static func json(_ r: RunResult) throws -> Any {
        try JSONSerialization.jsonObject(with: r.stdoutData)
    }
}
