import XMPPStorage

/// The rows an engine has still to send: the plan's rows in order, and rows put back after a
/// throttle or a dropped stream, which go first.
struct RowQueue {
    private var queue: [Int]
    private var head = 0
    private var retry: [Int] = []

    init(count: Int) { queue = Array(0..<count) }

    var hasQueued: Bool { head < queue.count || !retry.isEmpty }

    mutating func next() -> Int? {
        if !retry.isEmpty { return retry.removeFirst() }
        guard head < queue.count else { return nil }
        head += 1
        return queue[head - 1]
    }

    /// Puts `index` back (`uncertainNow`: an earlier request may have reached the server), or,
    /// after `maxAttempts` requests, fails it (retryable). Returns the outcome to record, if any:
    /// the failure, or, for a definitive "not now" answer (`journal`), the row pending again (a
    /// dropped request stays `sent` in the journal, so its password is kept).
    mutating func putBack(_ index: Int, items: inout [WorkItem], because reason: String, uncertainNow: Bool,
                          journal: Bool, maxAttempts: Int) -> RowOutcome? {
        items[index].uncertain = uncertainNow
        let item = items[index]
        func outcome(_ status: JournalStatus, _ error: String?, retryable: Bool) -> RowOutcome {
            RowOutcome(line: item.row.line, jid: item.row.jid.description, status: status, error: error,
                       retryable: retryable, uncertain: item.uncertain)
        }
        if item.attempts >= maxAttempts {
            return outcome(.failed, "gave up after \(item.attempts) attempts: \(reason)", retryable: true)
        }
        retry.append(index)
        return journal ? outcome(.pending, nil, retryable: false) : nil
    }
}
