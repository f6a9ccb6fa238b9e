import Foundation
import XCTest
import XMPPStanzas
import XMPPStorage
@testable import XMPPTools

/// The credential helper: its first line is the password; failure, silence and slowness are
/// exit status 3 naming the command; it reads nothing from our standard input.
final class PasswordCommandTests: XCTestCase {
    private func run(_ command: String, timeout: Duration = .seconds(5)) throws(ToolFailure) -> String {
        try PasswordCommand(command: command, timeout: timeout).password()
    }

    private func failure(_ command: String, timeout: Duration = .seconds(5)) -> ToolFailure? {
        do { _ = try run(command, timeout: timeout); return nil } catch { return error }
    }

    func testTheFirstLineIsThePassword() throws {
        XCTAssertEqual(try run("printf 'p@ss w0rd\\nsecond line\\n'"), "p@ss w0rd")
        XCTAssertEqual(try run("printf 'crlf\\r\\n'"), "crlf")
        XCTAssertEqual(try run("printf 'no newline'"), "no newline")
        XCTAssertEqual(try run("echo \"$((6 * 7))\" | sed 's/^/x/'"), "x42", "a shell pipeline, as in passwordeval")
    }

    func testAFailingCommandIsAnAuthenticationFailureNamingIt() throws {
        let f = try XCTUnwrap(failure("echo secret; exit 7"))
        XCTAssertEqual(f.code, .auth)
        XCTAssertEqual(f.message, "the password command 'echo secret; exit 7' failed (exit status 7)")
        XCTAssertFalse(f.message.contains("secret\n"))
    }

    func testEmptyOutputIsAFailure() throws {
        let f = try XCTUnwrap(failure("true"))
        XCTAssertEqual(f.code, .auth)
        XCTAssertTrue(f.message.hasPrefix("the password command 'true' printed no password"), f.message)
        XCTAssertNotNil(failure("printf '\\nsecond'"), "an empty first line is no password")
    }

    func testStandardInputIsDevNull() throws {
        // `cat` would wait for a terminal or eat our input; from /dev/null it ends at once, empty.
        let f = try XCTUnwrap(failure("cat"))
        XCTAssertTrue(f.message.contains("printed no password"), f.message)
    }

    func testASlowCommandIsStoppedAtTheTimeout() throws {
        let start = ContinuousClock.now
        let f = try XCTUnwrap(failure("sleep 30", timeout: .milliseconds(300)))
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
        XCTAssertEqual(f.code, .auth)
        XCTAssertTrue(f.message.contains("did not print a password within"), f.message)
    }

    /// Whether process `pid` is still running (a zombie waiting for its parent is not).
    private func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        guard let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }

    private func pid(in file: String) throws -> pid_t {
        let text = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return try XCTUnwrap(pid_t(text), text)
    }

    private func waitUntilGone(_ pid: pid_t) -> Bool {
        for _ in 0..<100 where isRunning(pid) { usleep(20_000) }
        return !isRunning(pid)
    }

    private func temporaryFile() -> String { NSTemporaryDirectory() + "xt-pwcmd-" + UUID().uuidString }

    func testACommandThatOutlivesTheDeadlineIsStoppedWithItsChildren() throws {
        let file = temporaryFile()
        defer { unlink(file) }
        let start = ContinuousClock.now
        // Prints the password, then waits on a child that holds standard output open.
        let f = try XCTUnwrap(failure("sleep 60 & echo $! > \(file); echo secret; wait", timeout: .milliseconds(500)))
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5), "held past --timeout")
        XCTAssertEqual(f.code, .auth)
        XCTAssertTrue(waitUntilGone(try pid(in: file)), "the command's child was left running")
    }

    func testWhatTheCommandLeavesBehindIsStoppedWhenItEnds() throws {
        let file = temporaryFile()
        defer { unlink(file) }
        let start = ContinuousClock.now
        XCTAssertEqual(try run("sleep 60 >/dev/null 2>&1 & echo $! > \(file); echo secret", timeout: .seconds(20)), "secret")
        XCTAssertTrue(waitUntilGone(try pid(in: file)), "a process it started was left running")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(10))
    }

    func testAChildHoldingStandardOutputDoesNotHoldTheTool() throws {
        let file = temporaryFile()
        defer { unlink(file) }
        let start = ContinuousClock.now
        // The shell ends at once; its child keeps the pipe open for a minute.
        XCTAssertEqual(try run("sleep 60 & echo $! > \(file); echo secret", timeout: .seconds(20)), "secret")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(10), "waited for the child's end of the pipe")
        XCTAssertTrue(waitUntilGone(try pid(in: file)))
    }

    func testACommandThatClosesItsOutputAndLingersIsStoppedAtTheDeadline() throws {
        let start = ContinuousClock.now
        let f = try XCTUnwrap(failure("echo secret; exec >&-; sleep 60", timeout: .milliseconds(500)))
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5), "waited for its exit past --timeout")
        XCTAssertEqual(f.code, .auth)
    }

    func testXMPPPasswordIsNotPassedOn() throws {
        setenv("XMPP_PASSWORD", "must-not-leak", 1)
        defer { unsetenv("XMPP_PASSWORD") }
        XCTAssertEqual(try run("echo \"${XMPP_PASSWORD:-unset}\""), "unset")
        XCTAssertEqual(try run("env | grep -c '^XMPP_PASSWORD=' || true"), "0")
    }

    /// A password for the run wins over the session; without either the error names both ways.
    func testAPasswordGivenForTheRunReplacesTheSession() throws {
        let jid = try JID("bot@example.org")
        let session = StoredSession(jid: jid, passwordCommand: "exit 1", created: 0)
        let given = PasswordSource(file: nil, stdin: false, environment: "from-env")
        guard case .password("from-env", .givenForRun) = try RunCredential.resolve(jid: jid, passwordForRun: given, session: session, timeout: .seconds(1))
        else { return XCTFail("the run's password must be used") }
        let notGiven = PasswordSource(file: nil, stdin: false, environment: nil)
        guard case .password("pw", .command("echo pw")) = try RunCredential.resolve(
            jid: jid, passwordForRun: notGiven, session: StoredSession(jid: jid, passwordCommand: "echo pw", created: 0), timeout: .seconds(5))
        else { return XCTFail("the session's command must be run") }
        XCTAssertThrowsError(try RunCredential.resolve(jid: jid, passwordForRun: notGiven, session: nil, timeout: .seconds(1))) {
            let message = ($0 as? ToolFailure)?.message ?? ""
            XCTAssertTrue(message.contains("xmpp-login bot@example.org") && message.contains("--password-file"), message)
        }
        XCTAssertThrowsError(try RunCredential.resolve(jid: jid, passwordForRun: nil, session: nil, timeout: .seconds(1))) {
            XCTAssertFalse(($0 as? ToolFailure)?.message.contains("--password-file") ?? true, "a command without the options does not offer them")
        }
    }
}
