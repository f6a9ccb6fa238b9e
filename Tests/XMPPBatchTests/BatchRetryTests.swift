import XCTest
import XMPPConnection
import XMPPStanzas
@testable import XMPPBatch

/// Back-off, and which answers and failures are worth another try.
final class BatchRetryTests: XCTestCase {
    func testBackoffIsBoundedWithJitter() {
        let backoff = Backoff(base: .milliseconds(100), maximum: .seconds(2))
        for failures in 1...30 {
            let d = backoff.delay(failures: failures)
            let nominal = min(Duration.milliseconds(100) * (1 << min(failures - 1, 20)), .seconds(2))
            XCTAssertGreaterThanOrEqual(d, nominal * 0.5)
            XCTAssertLessThan(d, nominal * 1.5)
        }
    }

    /// `.above` never waits less than the nominal delay (the watch's documented 1 s, 2 s, 4 s …).
    func testBackoffAboveNeverWaitsLessThanNominal() {
        let backoff = Backoff(base: .seconds(1), maximum: .seconds(60), jitter: .above)
        for failures in 1...30 {
            let d = backoff.delay(failures: failures)
            let nominal = min(Duration.seconds(1) * (1 << min(failures - 1, 20)), .seconds(60))
            XCTAssertGreaterThanOrEqual(d, nominal)
            XCTAssertLessThan(d, nominal * 1.5)
        }
    }

    func testThrottleClassification() {
        XCTAssertEqual(ReplyClassifier.verdict(StanzaError(type: "cancel", condition: .conflict)), .exists)
        XCTAssertEqual(ReplyClassifier.verdict(StanzaError(type: "wait", condition: .policyViolation)), .retry)
        XCTAssertEqual(ReplyClassifier.verdict(StanzaError(type: "modify", condition: .resourceConstraint)), .retry)
        XCTAssertEqual(ReplyClassifier.verdict(StanzaError(type: "wait", condition: .internalServerError)), .retry)
        XCTAssertEqual(ReplyClassifier.verdict(StanzaError(type: "modify", condition: .notAcceptable)), .refused)
        // Closed to this client (ejabberd 23.01 `register: deny`), by invitation (Prosody
        // invites_register): every row would get the same answer, so the run stops.
        XCTAssertEqual(ReplyClassifier.verdict(StanzaError(type: "auth", condition: .forbidden, text: "Access denied by service policy")), .stop)
        XCTAssertEqual(ReplyClassifier.verdict(StanzaError(type: "modify", condition: .notAcceptable,
                                                           text: "Registration on this server is through invitation only")), .stop)
        XCTAssertEqual(ReplyClassifier.verdict(StanzaError(type: "modify", condition: .notAcceptable,
                                                           text: "The requested username is invalid.")), .refused)
        XCTAssertTrue(ConnectionError.connectFailed(host: "h", port: 1, reason: "refused").isTransient)
        XCTAssertTrue(ConnectionError.stream(StreamError(condition: "system-shutdown")).isTransient)
        XCTAssertFalse(ConnectionError.certificateRejected("self-signed").isTransient)
        XCTAssertFalse(ConnectionError.stream(StreamError(condition: "host-unknown")).isTransient)
    }
}
