import XCTest
import XMPPConnection
import XMPPStanzas

/// One answer per question about a failure: reachable, link, transient, credentials.
final class ConnectionErrorKindTests: XCTestCase {
    private let unreachable: [ConnectionError] = [
        .dnsFailed(host: "example.org", reason: "no such host"), .connectFailed(host: "h", port: 5222, reason: "refused"),
    ]
    private let link: [ConnectionError] = [
        .timedOut("waiting"), .closedByPeer, .closedWithoutAnswer("h:5223"), .io("reset"), .streamClosed,
    ]
    private let answers: [ConnectionError] = [
        .tls("alert"), .certificateRejected("wrong name"), .pinMismatch(expected: "a", actual: "b"), .tlsUnavailable,
        .protocolViolation("x"), .authenticationFailed(condition: "not-authorized", text: nil),
        .stanzaError(StanzaError(type: "cancel", condition: .forbidden)),
        .stream(StreamError(condition: "host-unknown")),
    ]

    func testUnreachableIsOnlyNoAnswerAtAll() {
        for e in unreachable { XCTAssertTrue(e.isUnreachable, "\(e)") }
        for e in link + answers { XCTAssertFalse(e.isUnreachable, "\(e)") }
    }

    func testLinkFailuresIncludeTimeoutsAndDropsButNoAnswer() {
        for e in unreachable + link { XCTAssertTrue(e.isLinkFailure, "\(e)") }
        for e in answers { XCTAssertFalse(e.isLinkFailure, "\(e)") }
    }

    func testTransientCoversLinksThrottlingAndRestartsNotRefusals() {
        for e in unreachable + link { XCTAssertTrue(e.isTransient, "\(e)") }
        XCTAssertTrue(ConnectionError.stanzaError(StanzaError(type: "wait", condition: .resourceConstraint)).isTransient)
        XCTAssertTrue(ConnectionError.stanzaError(StanzaError(type: "modify", condition: .policyViolation)).isTransient)
        XCTAssertTrue(ConnectionError.stream(StreamError(condition: "system-shutdown")).isTransient)
        for e in answers { XCTAssertFalse(e.isTransient, "\(e)") }
    }

    func testAuthRejectionIsTheServerRefusingCredentials() {
        XCTAssertTrue(ConnectionError.authenticationFailed(condition: "not-authorized", text: nil).isAuthRejection)
        XCTAssertTrue(ConnectionError.sasl(.cachedKeysStale).isAuthRejection)
        XCTAssertTrue(ConnectionError.sasl(.serverSignatureMismatch).isAuthRejection)
        for e in unreachable + link { XCTAssertFalse(e.isAuthRejection, "\(e)") }
        XCTAssertFalse(ConnectionError.tls("alert").isAuthRejection)
    }
}
