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

    /// Registers a fresh account and returns (jid, password).
    func makeAccount(_ prefix: String = "u", login: Bool = false) throws -> (String, String) {
        if login {
            try server.requireLoginAccounts()
        } else {
            try server.require("register", "accounts are made by in-band registration")
            try server.require("register-unthrottled", "each test registers fresh accounts")
        }
        let user = ToolRunner.username(prefix)
        let password = "pw-" + UUID().uuidString
        let r = try run("xmpp-register", [jid(user)] + serverArgs + (login ? ["--login"] : []), password: password)
        XCTAssertEqual(r.status, 0, "register failed: \(r.stderr)")
        return (jid(user), password)
    }

    /// Parses stdout as JSON.
    static func json(_ r: RunResult) throws -> Any {
        try JSONSerialization.jsonObject(with: r.stdoutData)
    }
}
