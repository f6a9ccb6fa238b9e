import XCTest
import XMPPConnection
import XMPPStanzas
@testable import XMPPBatch

/// How a batch spreads its streams over endpoints and moves them off one that failed.
final class EndpointPoolTests: XCTestCase {
    private func target(_ port: Int, priority: Int = 0, weight: Int = 1) -> SRVTarget {
        SRVTarget(endpoint: Endpoint(host: "127.0.0.1", port: port, directTLS: false), priority: priority, weight: weight)
    }

    func testCommandLineEndpointsTakeTurns() {
        XCTAssertEqual(EndpointPool.homes(for: [target(1), target(2)], streams: 4), [0, 1, 0, 1])
        XCTAssertEqual(EndpointPool.homes(for: [target(1), target(2), target(3)], streams: 7), [0, 1, 2, 0, 1, 2, 0])
        XCTAssertEqual(EndpointPool.homes(for: [target(1), target(2)], streams: 1), [0])
    }

    func testStreamsFollowTheWeightsOfTheBestPriority() {
        let homes = EndpointPool.homes(for: [target(1, weight: 3), target(2, weight: 1), target(3, priority: 5, weight: 100)], streams: 8)
        XCTAssertEqual(homes.filter { $0 == 0 }.count, 6)
        XCTAssertEqual(homes.filter { $0 == 1 }.count, 2)
        XCTAssertFalse(homes.contains(2), "a worse priority is failover only")
        XCTAssertEqual(Array(homes.prefix(4)), [0, 0, 1, 0], "interleaved, not all of one first")
    }

    func testWeightZeroGetsStreamsOnlyWhenAllWeighZero() {
        XCTAssertEqual(EndpointPool.homes(for: [target(1, weight: 0), target(2, weight: 5)], streams: 4), [1, 1, 1, 1])
        XCTAssertEqual(EndpointPool.homes(for: [target(1, weight: 0), target(2, weight: 0)], streams: 4), [0, 1, 0, 1])
    }

    func testAFailedEndpointIsTriedLastUntilItsBackOffEnds() {
        let start = ContinuousClock.now
        var pool = EndpointPool(targets: [target(1), target(2), target(3)], streams: 3, now: start)
        XCTAssertEqual(pool.order(home: 0, now: start), [0, 1, 2])
        XCTAssertEqual(pool.order(home: 1, now: start), [1, 0, 2])
        XCTAssertTrue(pool.failed(1, now: start, delay: { .seconds($0 * 10) }))
        XCTAssertEqual(pool.order(home: 1, now: start + .seconds(1)), [0, 2, 1], "its streams go to the others")
        XCTAssertEqual(pool.order(home: 0, now: start + .seconds(1)), [0, 2, 1])
        XCTAssertEqual(pool.order(home: 1, now: start + .seconds(11)), [1, 0, 2], "back after the back-off")
    }

    func testStreamsDroppingTogetherCountAsOneFailure() {
        let start = ContinuousClock.now
        var pool = EndpointPool(targets: [target(1), target(2)], streams: 4, now: start)
        var asked: [Int] = []
        XCTAssertTrue(pool.failed(0, now: start, delay: { asked.append($0); return .seconds(2) }))
        XCTAssertFalse(pool.failed(0, now: start + .milliseconds(10), delay: { asked.append($0); return .seconds(2) }))
        XCTAssertEqual(asked, [1])
        // Failing again once back: the back-off grows; an answer resets it.
        XCTAssertTrue(pool.failed(0, now: start + .seconds(3), delay: { asked.append($0); return .seconds(4) }))
        XCTAssertEqual(asked, [1, 2])
        pool.succeeded(0)
        XCTAssertTrue(pool.failed(0, now: start + .seconds(8), delay: { asked.append($0); return .seconds(1) }))
        XCTAssertEqual(asked, [1, 2, 1])
    }

    func testWhenAllAreDownTheSoonestBackComesFirst() {
        let start = ContinuousClock.now
        var pool = EndpointPool(targets: [target(1), target(2)], streams: 2, now: start)
        pool.failed(0, now: start, delay: { _ in .seconds(9) })
        pool.failed(1, now: start, delay: { _ in .seconds(3) })
        XCTAssertEqual(pool.order(home: 0, now: start + .seconds(1)), [1, 0])
    }

    func testWorkWithoutAStreamRotatesOverTheHomes() {
        var pool = EndpointPool(targets: [target(1), target(2)], streams: 4, now: .now)
        XCTAssertEqual((0..<4).map { _ in pool.home(of: nil) }, [0, 1, 0, 1])
        XCTAssertEqual(pool.home(of: 3), 1)
    }

    func testAPutBackRowGoesFirstAndKeepsItsPassword() throws {
        var queue = RowQueue(count: 3)
        XCTAssertEqual(queue.next(), 0)
        XCTAssertEqual(queue.next(), 1)
        let row = BatchRow(line: 2, jid: try JID("a@example.org"), password: nil, newPassword: nil, profile: ProfileColumns())
        var items = [WorkItem(row: row, password: "kept", uncertain: false), WorkItem(row: row, password: "p", uncertain: false),
                     WorkItem(row: row, password: "q", uncertain: false)]
        items[0].attempts = 1
        XCTAssertNil(queue.putBack(0, items: &items, because: "dropped", uncertainNow: true, journal: false, maxAttempts: 3))
        XCTAssertTrue(items[0].uncertain)
        XCTAssertEqual(items[0].password, "kept")
        XCTAssertEqual(queue.next(), 0, "put back before the rows not yet sent")
        XCTAssertEqual(queue.next(), 2)
        XCTAssertFalse(queue.hasQueued)
        items[0].attempts = 3
        let failed = queue.putBack(0, items: &items, because: "dropped", uncertainNow: true, journal: false, maxAttempts: 3)
        XCTAssertEqual(failed?.status, .failed)
        XCTAssertEqual(failed?.retryable, true)
        XCTAssertFalse(queue.hasQueued)
    }
}
