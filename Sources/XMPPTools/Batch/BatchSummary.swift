import XMPPStorage

/// The final line on stderr: counts by status over the whole batch (earlier runs included),
/// and the rate of this run.
struct BatchSummary {
    /// Rows by status.
    var counts: [JournalStatus: Int] = [:]
    /// Rows that ended with an error (failed, invalid, or `exists` under `--on-exists fail`).
    var failures = 0
    /// Rows without an outcome yet.
    var unfinished = 0
    /// Rows whose roster (the contacts column) is still to do, and those whose roster is done.
    var rostersLeft = 0
    var rostersDone = 0
    /// Of the done ones, those left as an earlier batch made them (not logged in to).
    var rostersUnchanged = 0
    /// Rows whose roster could not be set (a refused password, say): their pairs are not whole.
    var rostersFailed = 0
    var total = 0
    var text = ""

    /// `rostersThisRun`: the rosters this run finished, counted beside the rows it finished, so
    /// a run interrupted (or resumed) in its roster passes says what it did.
    init(entries: [JournalEntry], ranFor seconds: Double, finishedThisRun: Int, rostersThisRun: Int = 0) {
        total = entries.count
        for e in entries {
            counts[e.status, default: 0] += 1
            if e.roster == "pending" || e.roster == "requested" { rostersLeft += 1 }
            if e.roster == "done" || e.roster == "unchanged" { rostersDone += 1 }
            if e.roster == "unchanged" { rostersUnchanged += 1 }
            if e.roster == "failed" { rostersFailed += 1 }
            if !e.status.isFinal { unfinished += 1 } else if e.status == .failed || e.status == .invalid || e.error != nil { failures += 1 }
        }
        // What the server did: a `registered` account exists, only its profile is still to set.
        let registered = counts[.registered] ?? 0
        let created = (counts[.created] ?? 0) + registered
        let order: [JournalStatus] = [.invited, .exists, .updated, .deleted, .changed, .failed, .invalid]
        var parts = created > 0 ? ["\(created) created" + (registered > 0 ? " (\(registered) without their profile yet)" : "")] : []
        parts += order.compactMap { s in counts[s].map { "\($0) \(s.rawValue)" } }
        if unfinished > registered { parts.append("\(unfinished - registered) not done") }
        // With a failed roster, "done" would overstate the others: each pair with a failed
        // account is still one-sided until that account's roster is set.
        if rostersDone > 0 {
            parts.append("\(rostersDone) roster\(rostersDone == 1 ? "" : "s") " + (rostersFailed > 0 ? "set" : "done")
                         + (rostersUnchanged > 0 ? " (\(rostersUnchanged) unchanged since an earlier run)" : ""))
        }
        if rostersFailed > 0 {
            parts.append(rostersFailed == 1 ? "1 roster failed (its pairs wait for a run that can log in as it)"
                         : "\(rostersFailed) rosters failed (their pairs wait for a run that can log in as each)")
        }
        if rostersLeft > 0 { parts.append("\(rostersLeft) roster\(rostersLeft == 1 ? "" : "s") not done") }
        let rate = seconds > 0 ? Double(finishedThisRun) / seconds : 0
        let rows = rostersThisRun == 0 ? "\(finishedThisRun)" : finishedThisRun == 0 ? "" : "\(finishedThisRun) row\(finishedThisRun == 1 ? "" : "s")"
        let rosters = rostersThisRun == 0 ? "" : "\(rostersThisRun) roster\(rostersThisRun == 1 ? "" : "s")"
        text = "\(total) row\(total == 1 ? "" : "s"): " + (parts.isEmpty ? "nothing to do" : parts.joined(separator: ", "))
            + "; this run finished " + [rows, rosters].filter { !$0.isEmpty }.joined(separator: " and ") + " in " + BatchSummary.seconds(seconds)
            + (finishedThisRun > 0 ? " (\(Int(rate.rounded()))/s)" : "")
    }

    /// True when every row ended without an error.
    var allSucceeded: Bool { failures == 0 && unfinished == 0 && rostersLeft == 0 && rostersFailed == 0 }

    private static func seconds(_ s: Double) -> String {
        let tenths = Int((s * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
