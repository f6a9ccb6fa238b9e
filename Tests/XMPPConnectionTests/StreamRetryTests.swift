import XCTest
import XMPPConnection
import XMPPStanzas

/// The one retry policy of log-ins: which failures cost a fresh stream, and never more than three.
final class StreamRetryTests: XCTestCase {
    private let fault = ConnectionError.stream(StreamError(condition: "internal-server-error"))
    private let offerChanged = ConnectionError.sasl(.rememberedOfferChanged)

    /// Runs the policy over `failures` (nil: success), returning the `pipelined` of each attempt
    /// and the error thrown, if any.
    private func run(pipelined: Bool, _ failures: [ConnectionError?]) -> ([Bool], ConnectionError?) {
        var attempts: [Bool] = []
        do {
            try StreamRetry.run(pipelined: pipelined) { pipelined in
                attempts.append(pipelined)
                guard attempts.count <= failures.count else { return }
                if let failure = failures[attempts.count - 1] { throw failure }
            }
            return (attempts, nil)
        } catch {
            return (attempts, error as? ConnectionError)
        }
    }

    func testAChangedOfferCostsOneUnpipelinedStream() {
        let (attempts, error) = run(pipelined: true, [offerChanged, nil])
        XCTAssertEqual(attempts, [true, false])
        XCTAssertNil(error)
    }

    func testATransientFaultCostsOneMoreStreamOnly() {
        let (attempts, error) = run(pipelined: false, [fault, fault, nil])
        XCTAssertEqual(attempts, [false, false], "a second fault is the answer")
        guard case .stream(let e)? = error else { return XCTFail("expected the fault, got \(String(describing: error))") }
        XCTAssertEqual(e.condition, "internal-server-error")
    }

    func testBothMendsTogetherCostAtMostThreeStreams() {
        let (attempts, error) = run(pipelined: true, [fault, offerChanged, fault, nil])
        XCTAssertEqual(attempts, [true, true, false])
        XCTAssertNotNil(error)
    }

    func testARefusalIsNeverRetried() {
        let refusal = ConnectionError.authenticationFailed(condition: "not-authorized", text: nil)
        let (attempts, _) = run(pipelined: true, [refusal, nil])
        XCTAssertEqual(attempts, [true])
        let (unpipelined, changed) = run(pipelined: false, [offerChanged, nil])
        XCTAssertEqual(unpipelined, [false], "an unpipelined stream remembered no offer to change")
        XCTAssertNotNil(changed)
    }
}
