import XMPPBatch
import XMPPStorage

/// `xmpp-register sync`'s last line: what the run changed, from the administrator's outcomes
/// (leavers, returning accounts) and the batch run's journal, not the rows it left alone.
struct SyncSummary {
    var text = ""
    /// Changes that failed: the next sync plans them again.
    var failures = 0
    /// The counts, without the time.
    private var parts: [String] = []

    init(admin: [SyncRun.AdminOutcome], entries: [JournalEntry], plan: SyncPlan, seconds: Double) {
        let creations = Set(plan.creations.map(\.line))
        let created = entries.filter { creations.contains($0.line) && [.created, .registered].contains($0.status) }.count
        let existed = entries.filter { creations.contains($0.line) && $0.status == .exists }.count
        let profiles = entries.filter { $0.status == .updated }.count
        let rosters = entries.filter { $0.roster == "done" }.count
        func admins(_ status: SyncRun.AdminOutcome.Status) -> Int { admin.filter { $0.status == status }.count }
        let counts: [(n: Int, one: String, many: String)] = [
            (created, "created", "created"), (existed, "already existed (left alone)", "already existed (left alone)"),
            (profiles, "profile updated", "profiles updated"), (rosters, "roster changed", "rosters changed"),
            (admins(.disabled), "disabled", "disabled"), (admins(.deleted), "deleted", "deleted"), (admins(.enabled), "enabled", "enabled"),
        ]
        failures = admins(.failed)
            + entries.filter { !$0.status.isFinal || $0.status == .failed || $0.error != nil || $0.roster == "failed"
                || $0.roster == "pending" || $0.roster == "requested" }.count
        parts = counts.filter { $0.n > 0 }.map { "\($0.n) " + ($0.n == 1 ? $0.one : $0.many) }
        if failures > 0 { parts.append("\(failures) failed") }
        text = SyncSummary.line(parts, seconds)
    }

    /// `count` results the read-back after the run found the server did not keep: failures.
    mutating func notKept(_ count: Int, seconds: Double) {
        guard count > 0 else { return }
        failures += count
        parts.append("\(count) not kept by the server (read back after the run)")
        text = SyncSummary.line(parts, seconds)
    }

    /// `sync --invite`: the invites made for the new accounts, and those that could not be (failures:
    /// their slips show the password).
    mutating func invites(made: Int, failed: Int, seconds: Double) {
        guard made + failed > 0 else { return }
        failures += failed
        if made > 0 { parts.append("\(made) invite\(made == 1 ? "" : "s") made") }
        if failed > 0 { parts.append("\(failed) without invite") }
        text = SyncSummary.line(parts, seconds)
    }

    private static func line(_ parts: [String], _ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return (parts.isEmpty ? "nothing changed" : parts.joined(separator: ", ")) + " in \(tenths / 10).\(tenths % 10) s"
    }
}
