import Foundation
import XCTest

/// Several accounts logged in under one private home, each used with `-a`.
struct RosterWorld {
    let tools: ToolRunner
    /// `--server`/`--ca-file` of the server the accounts live on.
    let serverArgs: [String]

    /// Accounts on the shared test server.
    init() throws {
        tools = try ToolRunner(server: try TestServer.require())
        serverArgs = tools.serverArgs
    }

    /// Accounts on another server (`--server HOST:PORT --ca-file CA`).
    init(serverArgs: [String]) throws {
        tools = try ToolRunner(server: try TestServer.require())
        self.serverArgs = serverArgs
    }

    /// Registers and logs in a fresh account; returns its JID.
    func account(_ prefix: String) throws -> String {
        try accountWithPassword(prefix).0
    }

    /// Creates and logs in a fresh account; returns its JID and password.
    func accountWithPassword(_ prefix: String) throws -> (String, String) {
        guard serverArgs != tools.serverArgs else { return try tools.makeAccount(prefix, login: true) }
        try tools.server.requireLoginAccounts()
        let jid = tools.jid(ToolRunner.username(prefix))
        let password = "pw-" + UUID().uuidString
        let r = try tools.run("xmpp-register", [jid, "--login"] + serverArgs, password: password)
        XCTAssertEqual(r.status, 0, "register failed: \(r.stderr)")
        return (jid, password)
    }

    /// `xmpp-roster ARGS -a ACCOUNT`.
    @discardableResult
    func roster(_ account: String, _ args: [String], stdin: String? = nil) throws -> RunResult {
        try tools.run("xmpp-roster", args + ["-a", account], stdin: stdin)
    }

    /// Whether `resource` is what a run of `account` binds: xmpp-tools.RANDOM, or with a FAST
    /// session (xmpp-tools(7)) whatever non-empty resource the server picked through Bind 2.
    func isOwnResource(_ resource: String, of account: String) throws -> Bool {
        let status = try tools.run("xmpp-login", ["status", "--json", "-a", account])
        let kind = (try? ToolRunner.json(status) as? [String: Any])?["session_kind"] as? String
        return kind == "fast" ? !resource.isEmpty : resource.hasPrefix("xmpp-tools.")
    }

    /// Runs a command that must succeed and returns its JSON output.
    func json(_ account: String, _ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        let r = try roster(account, args + ["--json"])
        XCTAssertEqual(r.status, 0, "xmpp-roster \(args) failed: \(r.stderr)", file: file, line: line)
        return try ToolRunner.json(r)
    }

    /// The roster of `account` as `[jid: contact object]`.
    func contacts(_ account: String, _ extra: [String] = ["--no-presence"], file: StaticString = #filePath, line: UInt = #line) throws -> [String: [String: Any]] {
        let list = try XCTUnwrap(try json(account, ["list"] + extra, file: file, line: line) as? [[String: Any]], file: file, line: line)
        var byJID: [String: [String: Any]] = [:]
        for contact in list { byJID[contact["jid"] as? String ?? ""] = contact }
        return byJID
    }

    /// Whether the server redelivers waiting subscription requests to a negative-priority
    /// resource (Prosody does; ejabberd only to priority ≥ 0, so `pending` finds none there).
    var redeliversPending: Bool { tools.server.has("pending-redelivery") }

    /// What `pending` shows for requests from `jids`: all of them where the server redelivers.
    func expectedPending(_ jids: [String]) -> [String] { redeliversPending ? jids.sorted() : [] }

    /// The JIDs `account` has waiting subscription requests from.
    func pending(_ account: String) throws -> [String] {
        let list = try XCTUnwrap(try json(account, ["pending"]) as? [[String: Any]])
        return list.compactMap { $0["jid"] as? String }.sorted()
    }

    /// Makes `a` and `b` subscribed both ways.
    func befriend(_ a: String, _ b: String) throws {
        XCTAssertEqual(try roster(a, ["add", b]).status, 0)
        XCTAssertEqual(try roster(b, ["approve", a, "--add-back"]).status, 0)
        XCTAssertEqual(try roster(a, ["approve", b]).status, 0)
    }

    /// Starts `xmpp-roster watch --json ARGS -a ACCOUNT` and waits for its "online" event.
    func watch(_ account: String, _ args: [String] = []) throws -> Watcher {
        let w = try Watcher(argv: [Paths.binaries + "/xmpp-roster", "watch", "--json", "-a", account] + args,
                            environment: tools.environment)
        _ = try w.waitFor(timeout: 30) { $0["event"] as? String == "online" }
        return w
    }
}

/// A background `xmpp-roster watch`: its JSON Lines, read as they come.
final class Watcher: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var buffer = Data()
    private var errors = Data()

    init(argv: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            guard let self else { return }
            self.lock.lock(); self.buffer.append(d); self.lock.unlock()
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            guard let self else { return }
            self.lock.lock(); self.errors.append(d); self.lock.unlock()
        }
        try process.run()
    }

    deinit { if process.isRunning { process.terminate() } }

    /// Every complete event line so far, parsed.
    var events: [[String: Any]] {
        lock.lock()
        let data = buffer
        lock.unlock()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// Standard error so far, as text.
    var errorOutput: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: errors, as: UTF8.self)
    }

    /// Standard output so far, as text.
    var output: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Waits until standard output contains `text`; fails with what arrived otherwise.
    func waitForOutput(containing text: String, timeout: TimeInterval = 15) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if output.contains(text) { return }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        if output.contains(text) { return }
        throw TestServerError.unusable("'\(text)' not seen; output: \(output), stderr: \(stderr)")
    }

    /// Standard error so far.
    var stderr: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: errors, as: UTF8.self)
    }

    /// Waits until an event matches; fails with what arrived otherwise.
    @discardableResult
    func waitFor(timeout: TimeInterval = 15, _ match: ([String: Any]) -> Bool) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let e = events.first(where: match) { return e }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        if let e = events.first(where: match) { return e }
        throw TestServerError.unusable("watch event not seen; events: \(events), stderr: \(stderr)")
    }

    /// Sends `signal` and returns the exit status.
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(15)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { process.terminate(); return -1 }
        return process.terminationStatus
    }
}
