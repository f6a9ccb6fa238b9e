import XMPPBatch

/// The options of `xmpp-register sync` that shape its run, each by its name.
struct SyncOptions {
    /// `--report`: the report (and its journal); nil only with --dry-run.
    var report: String?
    /// `--dry-run`: plan and print, change nothing.
    var dryRun: Bool
    /// `--prune`: what happens to the accounts that left the file.
    var prune: SyncPrune
    /// `--yes`: past the removal limit.
    var yes: Bool
    /// `--max-removals`: the removal limit (nil: `SyncPlan.defaultRemovalLimit`).
    var maxRemovals: Int?
    /// `--domain`: the domain bare names are taken on.
    var domain: String?
    /// `--jobs`: streams at once.
    var jobs: Int
}
