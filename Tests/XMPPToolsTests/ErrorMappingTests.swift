import XCTest
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage
@testable import XMPPTools

/// Every failure maps to the documented exit status (DESIGN.md §3).
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
        XCTAssertEqual(code(ConnectionError.stanzaError(StanzaError(type: "cancel", condition: "item-not-found"))), .notFound)
        XCTAssertEqual(code(ConnectionError.stanzaError(StanzaError(type: "cancel", condition: "not-allowed"))), .refused)
        XCTAssertEqual(code(ConnectionError.stanzaError(StanzaError(type: "wait", condition: "resource-constraint"))), .refused)
        XCTAssertEqual(code(ConnectionError.stanzaError(StanzaError(type: "modify", condition: "jid-malformed"))), .badInput)
    }

    func testRegistrationConflictIsFive() {
        let f = ErrorMapping.failure(for: RegistrationError.connection(.stanzaError(StanzaError(type: "cancel", condition: "conflict"))))
        XCTAssertEqual(f.code, .conflict)
        XCTAssertEqual(f.message, "the account already exists")
        XCTAssertEqual(code(RegistrationError.captchaRequired(instructions: nil)), .refused)
    }

    func testStorageAndJIDErrors() {
        XCTAssertEqual(code(StorageError.insecurePermissions(path: "/s", mode: 0o644)), .auth)
        XCTAssertEqual(code(JIDError.emptyDomain), .badInput)
        XCTAssertEqual(ErrorMapping.failure(for: JIDError.emptyDomain).message, "invalid JID: empty domain")
    }

    func testExitCodesAreTheDocumentedNumbers() {
        XCTAssertEqual(ExitCode.allCases.map(\.rawValue), Array(0...9) + [130, 143])
    }

    private func code(_ error: any Error) -> ExitCode { ErrorMapping.failure(for: error).code }
}
