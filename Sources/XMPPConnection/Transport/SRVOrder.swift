/// One SRV target with what RFC 2782 orders it by.
public struct SRVTarget: Sendable, Equatable {
    /// Where to connect.
    public var endpoint: Endpoint
    /// Lower is tried first; a higher priority is used only when every lower one failed.
    public var priority: Int
    /// Share of the load among targets of one priority (0: only when no other is left, almost).
    public var weight: Int

    /// Builds a target.
    public init(endpoint: Endpoint, priority: Int, weight: Int) {
        self.endpoint = endpoint
        self.priority = priority
        self.weight = weight
    }
}

/// The order RFC 2782 asks clients to try SRV targets in: by priority, and within one priority
/// a weighted random order (the running-sum selection). Direct-TLS targets (`_xmpps-client`)
/// come before STARTTLS ones of the same priority (XEP-0368): the two record sets are separate
/// services, so their weights are not shares of one pool and are only compared within a set.
public enum SRVOrder {
    /// `targets` in RFC 2782 order. `random(n)` returns a uniform whole number in `0...n`.
    public static func ordered(_ targets: [SRVTarget], random: (_ upperInclusive: Int) -> Int) -> [SRVTarget] {
        let priorities = Set(targets.map(\.priority)).sorted()
        var result: [SRVTarget] = []
        for priority in priorities {
            let group = targets.filter { $0.priority == priority }
            result += weighted(group.filter { $0.endpoint.directTLS }, random: random)
            result += weighted(group.filter { !$0.endpoint.directTLS }, random: random)
        }
        return result
    }

    /// RFC 2782's selection within one priority: weight-0 targets first, then pick the first
    /// whose running sum of weights reaches a random number in 0...sum, remove it, repeat.
    /// A weight-0 target is picked only when the number is 0 while it is first in line.
    static func weighted(_ group: [SRVTarget], random: (Int) -> Int) -> [SRVTarget] {
        var remaining = group.filter { $0.weight == 0 } + group.filter { $0.weight > 0 }
        var order: [SRVTarget] = []
        while !remaining.isEmpty {
            let sum = remaining.reduce(0) { $0 + max(0, $1.weight) }
            let draw = min(max(random(sum), 0), sum)
            var running = 0
            var chosen = remaining.count - 1
            for (i, target) in remaining.enumerated() {
                running += max(0, target.weight)
                if running >= draw { chosen = i; break }
            }
            order.append(remaining.remove(at: chosen))
        }
        return order
    }

    /// The system's uniform random source for `ordered`.
    public static func systemRandom(_ upperInclusive: Int) -> Int { Int.random(in: 0...max(0, upperInclusive)) }
}
