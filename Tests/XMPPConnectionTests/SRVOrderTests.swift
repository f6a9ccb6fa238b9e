import XCTest
@testable import XMPPConnection

/// RFC 2782 ordering of SRV targets: priority groups, weighted random order within one.
final class SRVOrderTests: XCTestCase {
    /// A seeded source, so a distribution test is the same on every run.
    private struct SplitMix {
        var state: UInt64
        mutating func next(_ upperInclusive: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Int(z % UInt64(upperInclusive + 1))
        }
    }

    private func target(_ host: String, priority: Int, weight: Int, directTLS: Bool = false) -> SRVTarget {
        SRVTarget(endpoint: Endpoint(host: host, port: directTLS ? 5223 : 5222, directTLS: directTLS), priority: priority, weight: weight)
    }

    private func firstPicks(_ targets: [SRVTarget], draws: Int = 20_000) -> [String: Int] {
        var rng = SplitMix(state: 42)
        var counts: [String: Int] = [:]
        for _ in 0..<draws {
            let order = SRVOrder.ordered(targets, random: { rng.next($0) })
            counts[order[0].endpoint.host, default: 0] += 1
        }
        return counts
    }

    func testWeightsShareTheFirstPlaceInProportion() {
        // Weights 60/30/10: the first place goes to each about that often.
        let counts = firstPicks([target("a", priority: 10, weight: 60), target("b", priority: 10, weight: 30),
                                 target("c", priority: 10, weight: 10)])
        XCTAssertEqual(Double(counts["a"] ?? 0) / 20_000, 0.6, accuracy: 0.02)
        XCTAssertEqual(Double(counts["b"] ?? 0) / 20_000, 0.3, accuracy: 0.02)
        XCTAssertEqual(Double(counts["c"] ?? 0) / 20_000, 0.1, accuracy: 0.02)
    }

    func testEqualWeightsAreNotAlwaysTheSameOrder() {
        // The old sort put the first record listed first every time. RFC 2782 draws from 0...sum
        // inclusive, so the first in line also gets the draw 0: 6 of 11 for weights 5 and 5.
        let counts = firstPicks([target("a", priority: 0, weight: 5), target("b", priority: 0, weight: 5)])
        XCTAssertEqual(Double(counts["a"] ?? 0) / 20_000, 6.0 / 11, accuracy: 0.02)
        XCTAssertEqual(Double(counts["b"] ?? 0) / 20_000, 5.0 / 11, accuracy: 0.02)
    }

    func testWeightZeroGetsASmallChanceOnly() {
        // With weights 0 and 100, the weight-0 target is first only when the draw is 0: 1 in 101.
        let counts = firstPicks([target("heavy", priority: 0, weight: 100), target("zero", priority: 0, weight: 0)])
        let zeroShare = Double(counts["zero"] ?? 0) / 20_000
        XCTAssertGreaterThan(zeroShare, 0.003)
        XCTAssertLessThan(zeroShare, 0.02)
    }

    func testAllWeightsZeroStillOrdersEveryTarget() {
        let targets = [target("a", priority: 0, weight: 0), target("b", priority: 0, weight: 0), target("c", priority: 0, weight: 0)]
        var rng = SplitMix(state: 7)
        let order = SRVOrder.ordered(targets, random: { rng.next($0) })
        XCTAssertEqual(Set(order.map(\.endpoint.host)), ["a", "b", "c"])
        XCTAssertEqual(order.count, 3)
    }

    func testLowerPriorityAlwaysComesFirstWhateverTheWeights() {
        let targets = [target("backup", priority: 20, weight: 1000), target("main1", priority: 10, weight: 1),
                       target("main2", priority: 10, weight: 1)]
        var rng = SplitMix(state: 3)
        for _ in 0..<200 {
            let order = SRVOrder.ordered(targets, random: { rng.next($0) }).map(\.endpoint.host)
            XCTAssertEqual(order.last, "backup")
            XCTAssertEqual(Set(order.prefix(2)), ["main1", "main2"])
        }
    }

    func testDirectTLSComesFirstWithinAPriority() {
        let targets = [target("plain", priority: 5, weight: 100), target("tls", priority: 5, weight: 1, directTLS: true),
                       target("later-tls", priority: 6, weight: 1, directTLS: true)]
        var rng = SplitMix(state: 9)
        for _ in 0..<100 {
            XCTAssertEqual(SRVOrder.ordered(targets, random: { rng.next($0) }).map(\.endpoint.host), ["tls", "plain", "later-tls"])
        }
    }

    func testRunningSumPicksByTheDraw() {
        // Weight-0 first, then a (10), b (20): draw 0 → zero, draw 1...10 → a, 11...30 → b.
        let targets = [target("a", priority: 0, weight: 10), target("b", priority: 0, weight: 20), target("zero", priority: 0, weight: 0)]
        XCTAssertEqual(SRVOrder.weighted(targets, random: { _ in 0 }).map(\.endpoint.host), ["zero", "a", "b"])
        XCTAssertEqual(SRVOrder.weighted(targets, random: { $0 }).map(\.endpoint.host), ["b", "a", "zero"])
        XCTAssertEqual(SRVOrder.weighted(targets, random: { $0 == 30 ? 10 : $0 }).first?.endpoint.host, "a")
    }

    func testFallbackWithoutRecordsIsTheDomainItself() {
        XCTAssertEqual(SRVResolver.targets(for: "localhost").map(\.endpoint), [Endpoint(host: "localhost", port: 5222, directTLS: false)])
        XCTAssertEqual(SRVResolver.endpoints(for: "[::1]", directTLSOnly: true), [Endpoint(host: "::1", port: 5223, directTLS: true)])
    }
}
