import XMPPConnection

/// The endpoints a batch spreads its streams over, and how each is doing: which endpoint each
/// stream calls home, the order a stream tries them in, and which are backing off after a
/// refused connect or a dropped stream. Pure: the caller passes the time and the delays.
struct EndpointPool: Sendable {
    struct Member: Sendable {
        var target: SRVTarget
        /// Failures in a row (connects refused or timed out, streams dropped).
        var failures = 0
        /// Backing off until then: tried only after every healthy endpoint.
        var notBefore: ContinuousClock.Instant
    }

    private(set) var members: [Member]
    /// Each stream's home endpoint (an index into `members`).
    let homes: [Int]
    private var rotation = 0

    /// A pool over `targets` (in the order to prefer them) for `streams` streams.
    init(targets: [SRVTarget], streams: Int, now: ContinuousClock.Instant) {
        members = targets.map { Member(target: $0, notBefore: now) }
        homes = EndpointPool.homes(for: targets, streams: max(1, streams))
    }

    /// Homes for `streams` streams: spread over the targets of the best (lowest) priority in
    /// proportion to their weights (smooth weighted round-robin, so equal weights alternate:
    /// the `--server` values take turns); a weight-0 target gets streams only when all of its
    /// priority weigh 0. Other priorities are failover only, as RFC 2782 wants.
    static func homes(for targets: [SRVTarget], streams: Int) -> [Int] {
        guard let best = targets.map(\.priority).min() else { return [] }
        let group = targets.indices.filter { targets[$0].priority == best }
        let anyWeight = group.contains { targets[$0].weight > 0 }
        let weights = group.map { anyWeight ? max(0, targets[$0].weight) : 1 }
        let total = weights.reduce(0, +)
        var current = [Int](repeating: 0, count: group.count)
        var homes: [Int] = []
        for _ in 0..<streams {
            for i in group.indices { current[i] += weights[i] }
            guard let pick = current.indices.max(by: { current[$0] < current[$1] || (current[$0] == current[$1] && $0 > $1) }) else { break }
            current[pick] -= total
            homes.append(group[pick])
        }
        return homes
    }

    /// The home of `stream`; for work without a stream of its own (a log-in per row), the
    /// next home in turn.
    mutating func home(of stream: Int?) -> Int? {
        guard !homes.isEmpty else { return nil }
        if let stream { return homes[stream % homes.count] }
        rotation += 1
        return homes[(rotation - 1) % homes.count]
    }

    /// The order to try the endpoints in: the home unless it is backing off, the other healthy
    /// ones in pool order, then those backing off, the soonest back first (when all are down,
    /// the stream's own back-off spaces the attempts).
    func order(home: Int?, now: ContinuousClock.Instant) -> [Int] {
        let healthy = members.indices.filter { members[$0].notBefore <= now }
        let resting = members.indices.filter { members[$0].notBefore > now }.sorted { members[$0].notBefore < members[$1].notBefore }
        var order = healthy
        if let home, let at = order.firstIndex(of: home) { order.insert(order.remove(at: at), at: 0) }
        return order + resting
    }

    /// `index` refused a connect or dropped a stream: it backs off for `delay(failures)`. Failures
    /// while it already backs off (its other streams dropping with it) do not count again.
    /// True when it just went into back-off.
    @discardableResult
    mutating func failed(_ index: Int, now: ContinuousClock.Instant, delay: (_ failures: Int) -> Duration) -> Bool {
        guard members[index].notBefore <= now else { return false }
        members[index].failures += 1
        members[index].notBefore = now + delay(members[index].failures)
        return true
    }

    /// `index` answered: its failures are forgotten.
    mutating func succeeded(_ index: Int) {
        members[index].failures = 0
    }

    /// The member for `endpoint`, if it is one.
    func index(of endpoint: Endpoint) -> Int? { members.firstIndex { $0.target.endpoint == endpoint } }
}
