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
