#if canImport(Glibc)
import Glibc
#endif
import XMPPBatch

/// How a batch run ended, as an exit status and a last line: a signal (130, 143), a fatal error
/// (its own status), rows that failed (1), or success (0, the summary as a note). Each names
/// the journal to `--resume` when rows are left.
struct BatchVerdict {
    var end: BatchEnd
    var fatal: (any Error)?
    var summary: BatchSummary
    /// Every row has a final outcome.
    var finished: Bool
    var journalPath: String
    var reportPath: String?
    /// Why `--report` could not be written, if it could not: the run then fails (status 1).
    var reportProblem: String? = nil
    /// How the run is continued (`sync` has no --resume: running it again continues).
    var resumeHint: String? = nil

    /// Throws the failure the run ended with, or prints the summary.
    func conclude(output: BatchOutput) throws(ToolFailure) {
        let resumeHint = self.resumeHint ?? "; continue with --resume (journal: \(journalPath))"
        if let reportProblem, fatal != nil || end == .interrupted { output.note(reportProblem) }
        if let signal = StopSignal.pending, end == .interrupted || fatal != nil {
            let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
            throw ToolFailure(signal == SIGTERM ? .terminated : .interrupted,
                              "interrupted by \(name); " + summary.text + (finished ? "" : resumeHint))
        }
        if let fatal {
            let failure = ErrorMapping.failure(for: fatal)
            throw ToolFailure(failure.code, failure.message + "; " + summary.text + (finished ? "" : resumeHint))
        }
        if end == .interrupted { throw ToolFailure(.interrupted, "interrupted; " + summary.text + resumeHint) }
        if let reportProblem { throw ToolFailure(.failed, reportProblem + "; " + summary.text) }
        if !summary.allSucceeded { throw ToolFailure(.failed, summary.text + (finished ? "" : resumeHint)) }
        output.note(summary.text + (reportPath.map { "; report: \($0)" } ?? ""))
    }
}
