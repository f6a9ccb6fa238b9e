import Foundation
import XCTest
import XMLTree
@testable import XMPPConnection

/// Base for hostile-peer tests: runs the real client against a `ScriptedPeer` on a separate
/// thread under an overall deadline (a hang fails the test instead of stalling the suite), and
/// runs the built `xmpp-login` against the same script to check its exit status and its one line.
class HostilePeerTestCase: XCTestCase {
    static let password = "hunter2-hostile-pw"
    /// Longest any client run may take before the test calls it a hang.
    static let overallDeadline: Duration = .seconds(20)

    /// The peer's identity for `localhost`, and the file the client trusts.
    var localhost: PeerTLSIdentity!
    var caFile = ""

    override func setUpWithError() throws {
        let pair = try PeerCertificates.pair(for: "localhost")
        localhost = try PeerTLSIdentity(certificate: pair.certificate, key: pair.key)
        caFile = pair.certificate
    }

    /// A peer playing `script` on each connection, stopped when the test ends.
    func scriptedPeer(_ script: @escaping () -> [ScriptedPeer.Step]) throws -> ScriptedPeer {
        let peer = try ScriptedPeer(script: script)
        addTeardownBlock { peer.stop() }
        return peer
    }

    /// The whole client flow of a login: open (STARTTLS), authenticate with SCRAM or PLAIN, bind.
    static func login(port: Int, caFile: String, timeout: Duration, limits: XMLLimits,
                      domain: String = "localhost", requireSCRAM: Bool = false, directTLS: Bool = false,
                      polled: Bool = false) throws(ConnectionError) {
        let options = ConnectionOptions(domain: domain, serverHost: "127.0.0.1", serverPort: port, directTLS: directTLS,
                                        timeout: timeout, limits: limits)
        if polled { return try polledLogin(options, caFile: caFile) }
        let connection = try Connection.open(options, tls: TLSContext(settings: TLSSettings(caFile: caFile)))
        defer { connection.close() }
        _ = try connection.authenticate(username: "alice", credential: .password(password), usedSCRAMBefore: false,
                                    requireSCRAM: requireSCRAM)
        _ = try connection.bind()
    }

    /// The same log-in through `PolledSetup`, driven by poll() as the batch's loop drives it.
    static func polledLogin(_ options: ConnectionOptions, caFile: String) throws(ConnectionError) {
        let login = try PolledSetup(options, endpoints: options.resolveEndpoints(), tls: TLSContext(settings: TLSSettings(caFile: caFile)),
                                    username: "alice", password: password, resource: nil)
        while true {
            let advanced: PolledConnection?
            do { advanced = try login.advance() } catch let error as ConnectionError { throw error } catch {
                throw .protocolViolation("a password log-in has no policy to fail: \(error)")
            }
            if let done = advanced {
                XCTAssertNotNil(done.connection.boundJID)
                done.close()
                return
            }
            let left = ContinuousClock.now.duration(to: login.deadline)
            guard left > .zero else {
                try login.expire()
                continue
            }
            var pfd = pollfd(fd: login.fileDescriptor, events: Int16(login.wantsWrite ? POLLOUT : POLLIN), revents: 0)
            _ = poll(&pfd, 1, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1))
        }
    }

    /// The connection engine's two drivers: the blocking one of single commands (`Connection`)
    /// and the batch's poll loop (`StreamPoller.ready`, then `advance`, `expire` at the deadline).
    enum EngineDriver: CaseIterable { case blocking, pollLoop }

    /// Opens and logs in as `request` says through `driver`; `saslOnly` keeps to RFC 6120 SASL
    /// (blocking: `authenticate`, then `bind` if the request binds).
    static func engineLogIn(_ options: ConnectionOptions, caFile: String, request: LoginRequest, saslOnly: Bool = false,
                            driver: EngineDriver) throws(ConnectionError) -> LoginOutcome {
        let tls = try TLSContext(settings: TLSSettings(caFile: caFile))
        switch driver {
        case .blocking:
            let connection = try Connection.open(options, tls: tls)
            defer { connection.close() }
            guard saslOnly else { return try connection.logIn(request) }
            guard case .password(let password) = request.credential else { throw .protocolViolation("a test sends a password") }
            let outcome = try connection.authenticate(username: request.username, credential: .password(password),
                                                      usedSCRAMBefore: request.usedSCRAMBefore, requireSCRAM: request.requireSCRAM)
            let bound = request.bind ? try connection.bind(resource: request.resource) : nil
            return LoginOutcome(mechanism: outcome.mechanism, keys: outcome.keys, token: nil, boundJID: bound, usedSASL2: false,
                                downgradeProtected: connection.downgradeProtected)
        case .pollLoop:
            let opening = try StreamOpening(options, endpoints: options.resolveEndpoints(), tls: tls, trace: nil, failed: { _, _ in })
            let connection = try pollLoop(opening)
            defer { connection.close() }
            return try pollLoop(StreamLogIn(connection, request, saslOnly: saslOnly))
        }
    }

    /// Drives `steps` as the batch's loop does: one poll() over the socket, then every step
    /// it allows, `expire` once the deadline passed.
    static func pollLoop<S: StreamSteps>(_ steps: S) throws(ConnectionError) -> S.Result {
        while true {
            if let done = try steps.advance() { return done }
            if steps.deadline <= .now {
                try steps.expire()
                continue
            }
            _ = StreamPoller.ready([StreamPoller.Watch(steps.fileDescriptor, write: steps.wantsWrite)], until: steps.deadline)
        }
    }

    /// What a log-in came to, in words both drivers must agree on.
    static func summary(_ result: Result<LoginOutcome, ConnectionError>) -> String {
        switch result {
        case .success(let o):
            return "\(o.mechanism) \(o.boundJID?.description ?? "-") sasl2=\(o.usedSASL2) token=\(o.token?.token.secret ?? "-") "
                + "keys=\(o.keys != nil) ssdp=\(o.downgradeProtected)"
        case .failure(let error): return "\(error)"
        }
    }

    /// Runs `request` against `peer` through both drivers, each on its own thread under the
    /// overall deadline (the blocking one first, so the peer's first transcript is its); fails
    /// the test if they end differently. The blocking driver's result.
    func runBothDrivers(_ peer: ScriptedPeer, options: ConnectionOptions, request: LoginRequest, saslOnly: Bool = false,
                        file: StaticString = #filePath, line: UInt = #line) -> Result<LoginOutcome, ConnectionError>? {
        var results: [Result<LoginOutcome, ConnectionError>] = []
        for driver in EngineDriver.allCases {
            guard let result = engineLogInOnThread(peer, options, request: request, saslOnly: saslOnly, driver: driver,
                                                   file: file, line: line) else { return nil }
            results.append(result)
        }
        XCTAssertEqual(Self.summary(results[1]), Self.summary(results[0]), "the poll loop's driver and the blocking one differ",
                       file: file, line: line)
        return results.first
    }

    /// `engineLogIn` on its own thread under the overall deadline; nil (and a failure) if it hung.
    func engineLogInOnThread(_ peer: ScriptedPeer, _ options: ConnectionOptions, request: LoginRequest, saslOnly: Bool,
                             driver: EngineDriver, file: StaticString, line: UInt) -> Result<LoginOutcome, ConnectionError>? {
        let box = OutcomeBox()
        let caFile = caFile
        let thread = Thread {
            do throws(ConnectionError) {
                box.set(.success(try HostilePeerTestCase.engineLogIn(options, caFile: caFile, request: request, saslOnly: saslOnly,
                                                                     driver: driver)))
            } catch {
                box.set(.failure(error))
            }
        }
        thread.start()
        guard let result = box.wait(Self.overallDeadline) else {
            XCTFail("the client hung (\(driver))", file: file, line: line)
            peer.stop()
            return nil
        }
        return result
    }

    /// Runs `login` against `peer` on its own thread: the error it ended with (nil on success)
    /// and how long it took; nil (and a failure) if it has not ended by `overallDeadline`.
    func runLogin(_ peer: ScriptedPeer, timeout: Duration = .seconds(5), limits: XMLLimits = XMLLimits(),
                  domain: String = "localhost", requireSCRAM: Bool = false, directTLS: Bool = false, polled: Bool = false,
                  file: StaticString = #filePath, line: UInt = #line) -> (ConnectionError?, Duration)? {
        let box = ResultBox()
        let port = peer.port, caFile = caFile
        let thread = Thread {
            let start = ContinuousClock.now
            var outcome: ConnectionError?
            do throws(ConnectionError) {
                try HostilePeerTestCase.login(port: port, caFile: caFile, timeout: timeout, limits: limits, domain: domain,
                                              requireSCRAM: requireSCRAM, directTLS: directTLS, polled: polled)
            } catch {
                outcome = error
            }
            box.set(outcome, ContinuousClock.now - start)
        }
        thread.start()
        guard box.wait(Self.overallDeadline) else {
            XCTFail("the client hung: no result after \(Self.overallDeadline)", file: file, line: line)
            peer.stop()  // closes the connection under the client so its thread can end
            _ = box.wait(.seconds(5))
            return nil
        }
        if !polled {
            // The same engine through the batch's poll loop must end the same way.
            let options = ConnectionOptions(domain: domain, serverHost: "127.0.0.1", serverPort: port, directTLS: directTLS,
                                            timeout: timeout, limits: limits)
            let request = LoginRequest(username: "alice", credential: .password(Self.password), usedSCRAMBefore: false,
                                       requireSCRAM: requireSCRAM)
            guard let polledResult = engineLogInOnThread(peer, options, request: request, saslOnly: true, driver: .pollLoop,
                                                         file: file, line: line) else { return nil }
            let polledError: ConnectionError? = if case .failure(let e) = polledResult { e } else { nil }
            XCTAssertEqual(polledError.map { "\($0)" }, box.value?.0.map { "\($0)" },
                           "the poll loop's driver and the blocking one differ", file: file, line: line)
        }
        return box.value
    }

    /// Runs `login` against `peer` and returns the error it ended with and how long it took;
    /// fails the test if the client succeeds or hangs, or if the error is not one line.
    func clientError(_ peer: ScriptedPeer, timeout: Duration = .seconds(5), limits: XMLLimits = XMLLimits(),
                     domain: String = "localhost", requireSCRAM: Bool = false, directTLS: Bool = false, polled: Bool = false,
                     file: StaticString = #filePath, line: UInt = #line) -> (ConnectionError, Duration)? {
        guard let (error, elapsed) = runLogin(peer, timeout: timeout, limits: limits, domain: domain, requireSCRAM: requireSCRAM,
                                              directTLS: directTLS, polled: polled, file: file, line: line)
        else { return nil }
        guard let error else {
            XCTFail("the client succeeded against a hostile peer", file: file, line: line)
            return nil
        }
        XCTAssertFalse(error.description.contains("\n"), "error is not one line: \(error)", file: file, line: line)
        return (error, elapsed)
    }

    /// Runs the built `xmpp-login` against `peer` (the peer's next connection); skips when the
    /// binary is not built. Asserts `exitCode` and exactly one line on stderr; returns the line
    /// and how long the tool ran.
    @discardableResult
    func assertTool(_ peer: ScriptedPeer, exits exitCode: Int32, timeoutSeconds: Int = 5, jid: String = "alice@localhost",
                    extraArguments: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> (String, Duration) {
        guard let binary = Self.loginBinary else {
            throw XCTSkip("xmpp-login is not built next to the test bundle; its exit status was not checked")
        }
        let home = NSTemporaryDirectory() + "xt-hostile-home-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [jid, "--server", "127.0.0.1:\(peer.port)", "--ca-file", caFile,
                             "--timeout", String(timeoutSeconds), "--password-stdin"] + extraArguments
        var env = ProcessInfo.processInfo.environment
        for key in ["XMPP_ACCOUNT", "XMPP_PASSWORD"] { env[key] = nil }
        env["HOME"] = home
        env["XDG_CONFIG_HOME"] = home + "/config"
        env["XDG_CACHE_HOME"] = home + "/cache"
        process.environment = env
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let start = ContinuousClock.now
        try process.run()
        stdin.fileHandleForWriting.write(Data((Self.password + "\n").utf8))
        try stdin.fileHandleForWriting.close()
        if exited.wait(timeout: .now() + .seconds(Int(Self.overallDeadline.components.seconds))) == .timedOut {
            process.terminate()
            XCTFail("xmpp-login hung against the hostile peer", file: file, line: line)
            return ("", ContinuousClock.now - start)
        }
        let elapsed = ContinuousClock.now - start
        let errText = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let outText = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationReason, .exit, "xmpp-login died of a signal: \(errText)", file: file, line: line)
        XCTAssertEqual(process.terminationStatus, exitCode, "stderr: \(errText)", file: file, line: line)
        XCTAssertEqual(outText, "", file: file, line: line)
        let lines = errText.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 2, "expected one line on stderr, got: \(errText)", file: file, line: line)
        XCTAssertEqual(lines.last, "", file: file, line: line)
        XCTAssertTrue(errText.hasPrefix("xmpp-login: "), errText, file: file, line: line)
        return (String(lines.first ?? ""), elapsed)
    }

    /// The built `xmpp-login`: `XT_BIN_DIR`, or next to the test bundle.
    static let loginBinary: String? = {
        let fm = FileManager.default
        if let dir = ProcessInfo.processInfo.environment["XT_BIN_DIR"] {
            return fm.isExecutableFile(atPath: dir + "/xmpp-login") ? dir + "/xmpp-login" : nil
        }
        for start in CommandLine.arguments + [Bundle.main.bundlePath] {
            var url = URL(fileURLWithPath: start)
            for _ in 0..<4 {
                url.deleteLastPathComponent()
                let candidate = url.appendingPathComponent("xmpp-login").path
                if fm.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()
}

/// Hands a result from the client thread to the test thread.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private let ready = DispatchSemaphore(value: 0)
    private var stored: (ConnectionError?, Duration)?

    func set(_ error: ConnectionError?, _ elapsed: Duration) {
        lock.lock()
        stored = (error, elapsed)
        lock.unlock()
        ready.signal()
    }

    func wait(_ limit: Duration) -> Bool {
        ready.wait(timeout: .now() + .milliseconds(Int(limit.components.seconds * 1000))) == .success
    }

    var value: (ConnectionError?, Duration)? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
