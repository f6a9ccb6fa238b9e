import Arguments
import XCTest
import XMPPBatch
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage
@testable import XMPPTools

/// Every failure maps to the documented exit status (ARCHITECTURE.md §3).
final class ErrorMappingTests: XCTestCase {
    func testConnectionErrors() {
        XCTAssertEqual(code(ConnectionError.connectFailed(host: "h", port: 1, reason: "refused")), .network)
        XCTAssertEqual(code(ConnectionError.timedOut("x")), .network)
        XCTAssertEqual(code(ConnectionError.dnsFailed(host: "h", reason: "x")), .network)
        XCTAssertEqual(code(ConnectionError.certificateRejected("self-signed")), .tls)
        XCTAssertEqual(code(ConnectionError.pinMismatch(expected: "a", actual: "b")), .tls)
        XCTAssertEqual(code(ConnectionError.tlsUnavailable), .tls)
        XCTAssertEqual(code(ConnectionError.authenticationFailed(condition: "not-authorized", text: nil)), .auth)
        XCTAssertEqual(code(ConnectionError.sasl(.serverSignatureMismatch)), .auth)
        XCTAssertEqual(code(ConnectionError.stream(StreamError(condition: "policy-violation"))), .refused)
        XCTAssertEqual(code(ConnectionError.stream(StreamError(condition: "system-shutdown"))), .network)
    }

    func testStanzaConditions() {
        XCTAssertEqual(code(ConnectionError.stanzaError(StanzaError(type: "cancel", condition: .itemNotFound))), .notFound)
        XCTAssertEqual(code(ConnectionError.stanzaError(StanzaError(type: "cancel", condition: .notAllowed))), .refused)
        XCTAssertEqual(code(ConnectionError.stanzaError(StanzaError(type: "wait", condition: .resourceConstraint))), .refused)
        XCTAssertEqual(code(ConnectionError.stanzaError(StanzaError(type: "modify", condition: .jidMalformed))), .badInput)
    }

    /// The service says what the server wants; only the tool names the option that gives it.
    /// A PEP profile store's refusal keeps the server's condition's status, naming the store.
    func testAProfileStoreRefusalMapsByItsCondition() {
        let refused = ProfileMirrorError(refusals: ["nick": .init(reason: "server error: not-allowed", condition: .notAllowed)])
        XCTAssertEqual(ErrorMapping.failure(for: refused).code, ErrorMapping.code(forCondition: .notAllowed))
        XCTAssertEqual(ErrorMapping.failure(for: refused).message, "the nick store refused it: server error: not-allowed")
        XCTAssertEqual(ErrorMapping.failure(for: ProfileMirrorError(refusals: ["vcard4": .init(reason: "timed out", condition: nil)])).code,
                       .refused)
    }

    func testAMissingRegistrationFieldIsAUsageErrorNamingTheOption() {
        XCTAssertEqual(RegistrationError.missingField("email").description, "the server requires the field 'email'")
        let failure = ErrorMapping.failure(for: RegistrationError.missingField("email"))
        XCTAssertEqual(failure.code, .usage)
        XCTAssertEqual(failure.message, "the server requires the field 'email' (give it with --field email=VALUE)")
    }

    func testRegistrationConflictIsFive() {
        let f = ErrorMapping.failure(for: RegistrationError.connection(.stanzaError(StanzaError(type: "cancel", condition: .conflict))))
        XCTAssertEqual(f.code, .conflict)
        XCTAssertEqual(f.message, "the account already exists")
        XCTAssertEqual(code(RegistrationError.captchaRequired(instructions: nil)), .refused)
    }

    /// Registration closed, by invitation or throttled: its own statuses (10 stop, 11 later) and
    /// the way forward, not "bad input" (9) or a generic refusal (8).
    func testRegistrationRefusalsSayTheWayForward() {
        let closed = ErrorMapping.failure(for: RegistrationError.refused(
            .closed, domain: "example.org", answer: StanzaError(type: "auth", condition: .forbidden, text: "Access denied by service policy")))
        XCTAssertEqual(closed.code, .registrationClosed)
        XCTAssertTrue(closed.message.contains("administrator"), closed.message)
        let invite = ErrorMapping.failure(for: RegistrationError.refused(
            .invitationOnly, domain: "example.org", answer: StanzaError(type: "modify", condition: .notAcceptable)))
        XCTAssertEqual(invite.code, .registrationClosed)
        XCTAssertTrue(invite.message.contains("invitation"), invite.message)
        let throttled = ErrorMapping.failure(for: RegistrationError.refused(
            .throttled, domain: "example.org", answer: StanzaError(type: "wait", condition: .resourceConstraint)))
        XCTAssertEqual(throttled.code, .registrationThrottled)
        XCTAssertTrue(throttled.message.contains("600 s"), throttled.message)
        let none = ErrorMapping.failure(for: RegistrationError.notSupported(domain: "example.org"))
        XCTAssertEqual(none.code, .registrationClosed)
        XCTAssertTrue(none.message.contains("administrator"), none.message)
        XCTAssertEqual(code(RegistrationError.connection(.stanzaError(StanzaError(type: "modify", condition: .notAcceptable)))), .badInput)
    }

    func testStorageAndJIDErrors() {
        XCTAssertEqual(code(StorageError.insecurePermissions(path: "/s", mode: 0o644)), .auth)
        XCTAssertEqual(code(JIDError.emptyDomain), .badInput)
        XCTAssertEqual(ErrorMapping.failure(for: JIDError.emptyDomain).message, "invalid JID: empty domain")
    }

    /// The batch engine's own errors and the journal's keep the statuses the command gave them.
    func testAnAdHocRefusalSeenAsAnyErrorIsNotPermitted() {
        // Through `failure(for: any Error)`, as a batch's --admin session meets it (it once
        // called itself there until the stack ran out).
        let refusal: any Error = AdHocError.forbidden(node: Namespace.admin + "#add-user", StanzaError(type: "auth", condition: .forbidden))
        XCTAssertEqual(code(refusal), .notPermitted)
        XCTAssertTrue(ErrorMapping.failure(for: refusal).message.hasSuffix("the account is not an administrator of this server"))
    }

    func testBatchAndJournalErrors() {
        XCTAssertEqual(code(BatchError.unreadableInput("x.csv: no such file")), .badInput)
        XCTAssertEqual(code(BatchError.invalidCSV("x.csv: bad quote")), .badInput)
        XCTAssertEqual(code(BatchError.badHeader("line 1: …")), .badInput)
        XCTAssertEqual(code(BatchError.usernameNeedsDomain), .usage)
        XCTAssertEqual(code(BatchError.notAReport(path: "/r.csv", reason: "no jid column")), .usage)
        XCTAssertEqual(code(BatchError.syncState("cannot write the sync state")), .failed)
        XCTAssertEqual(code(BatchError.unreadableReport(path: "/r.csv", reason: "EACCES")), .failed)
        XCTAssertEqual(code(BatchError.journalLacksLine(7)), .failed)
        XCTAssertEqual(code(BatchError.noProgress(seconds: 120, reason: "throttled", throttled: true)), .registrationThrottled)
        XCTAssertEqual(code(BatchError.noProgress(seconds: 120, reason: nil, throttled: false)), .network)
        XCTAssertEqual(ErrorMapping.failure(for: BatchError.noProgress(seconds: 60, reason: "timed out", throttled: false)).message,
                       "no progress for 60 s: timed out")
        XCTAssertEqual(code(JournalError.unfinished(path: "/j", done: 1, total: 2, sameBatch: true, passwords: 0)), .usage)
        XCTAssertEqual(code(JournalError.mismatch(path: "/j", recorded: "other", passwords: 0)), .usage)
        XCTAssertEqual(code(JournalError.holdsPasswords(path: "/j", count: 1)), .usage)
        XCTAssertEqual(code(JournalError.locked(path: "/j")), .failed)
    }

    func testExitCodesAreTheDocumentedNumbers() {
        XCTAssertEqual(ExitCode.allCases.map(\.rawValue), Array(0...14) + [130, 143])
    }

    func testUnreachableServerSuggestsServerOption() {
        XCTAssertEqual(ErrorMapping.failure(for: ConnectionError.connectFailed(host: "example.org", port: 5222, reason: "Connection refused")).message,
                       "cannot connect to example.org port 5222: Connection refused (is the server elsewhere? name it with --server HOST[:PORT])")
        XCTAssertTrue(ErrorMapping.failure(for: ConnectionError.dnsFailed(host: "x.invalid", reason: "Name or service not known"))
            .message.hasSuffix("(is the server elsewhere? name it with --server HOST[:PORT])"))
    }

    func testPasswordRejectionInTheToolsWords() {
        let jid = "alice@example.org"
        let rows: [(ConnectionError, String)] = [
            (.authenticationFailed(condition: "not-authorized", text: "Invalid username or password"),
             "wrong password or unknown account for alice@example.org (server: not-authorized)"),
            (.sasl(.serverError("invalid-proof")), "wrong password or unknown account for alice@example.org (server: invalid-proof)"),
            (.authenticationFailed(condition: "account-disabled", text: nil),
             "the account alice@example.org is disabled on its server (server: account-disabled)"),
            (.authenticationFailed(condition: "temporary-auth-failure", text: "db down"),
             "the server could not check the password of alice@example.org just now; try again later (server: temporary-auth-failure)"),
            (.authenticationFailed(condition: "malformed-request", text: nil),
             "the server refused to log in alice@example.org (server: malformed-request)"),
        ]
        for (error, message) in rows {
            let failure = ErrorMapping.passwordRejection(error, jid: jid)
            XCTAssertEqual(failure?.code, .auth, "\(error)")
            XCTAssertEqual(failure?.message, message)
        }
        XCTAssertNil(ErrorMapping.passwordRejection(.sasl(.serverSignatureMismatch), jid: jid))
        XCTAssertNil(ErrorMapping.passwordRejection(.closedByPeer, jid: jid))
    }

    func testAccountWithoutDomainSaysToAddIt() {
        XCTAssertThrowsError(try PasswordLogin.accountJID("alice")) { error in
            let failure = ErrorMapping.failure(for: error)
            XCTAssertEqual(failure.code, .badInput)
            XCTAssertEqual(failure.message, "JID 'alice' has no domain: add @ and the server's domain, as in alice@example.org")
        }
        XCTAssertThrowsError(try AccountContext.parseAccountJID("bob", what: "account")) { error in
            XCTAssertEqual(ErrorMapping.failure(for: error).message,
                           "account 'bob' has no domain: add @ and the server's domain, as in bob@example.org")
        }
        XCTAssertEqual(try PasswordLogin.accountJID("alice@example.org/phone").description, "alice@example.org")
        XCTAssertThrowsError(try PasswordLogin.accountJID("example.org/r")) { error in
            XCTAssertEqual(ErrorMapping.failure(for: error).message, "invalid JID 'example.org/r': it needs a user part (user@domain)")
        }
    }

    /// A value a command reads back through its typed declaration (`--size 8`) is a usage
    /// error, said without the tool's name (the tool adds it), not a failure (exit 1).
    func testAnOptionValueACommandRefusesIsAUsageError() {
        let error = ArgumentError(.invalidValue(option: "--size", value: "8", expected: "an integer from 16 to 1024"),
                                  tool: "xmpp-avatar", command: "resize")
        let failure = ErrorMapping.failure(for: error)
        XCTAssertEqual(failure.code, .usage)
        XCTAssertEqual(failure.message, "invalid value '8' for --size (expected an integer from 16 to 1024)")
    }

    private func code(_ error: any Error) -> ExitCode { ErrorMapping.failure(for: error).code }
}
