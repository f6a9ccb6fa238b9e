import Glibc
import XMPPBatch
import XMPPServices

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
    /// The server did nothing for the run's journal (no account created or changed, no password kept).
    var journalUntouched = false
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
            if let closed = BatchVerdict.closedRegistration(fatal, untouched: journalUntouched) {
                throw ToolFailure(.registrationClosed, closed + "; " + summary.text)
            }
            let failure = ErrorMapping.failure(for: fatal)
            throw ToolFailure(failure.code, failure.message + "; " + summary.text + (finished ? "" : resumeHint))
        }
        if end == .interrupted { throw ToolFailure(.interrupted, "interrupted; " + summary.text + resumeHint) }
        if let reportProblem { throw ToolFailure(.failed, reportProblem + "; " + summary.text) }
        if !summary.allSucceeded { throw ToolFailure(.failed, summary.text + (finished ? "" : resumeHint)) }
        output.note(summary.text + (reportPath.map { "; report: \($0)" } ?? ""))
    }

    /// The message for a server closed to in-band registration (by invitation only, or not at
    /// all): the batch's own ways forward, --admin and --invite, rather than a single account's,
    /// and no --resume, which would meet the same refusal. `untouched`: the server did nothing for
    /// this run, so the corrected run takes its journal over. Nil for any other error.
    static func closedRegistration(_ error: any Error, untouched: Bool) -> String? {
        let refusal: RegistrationRefusal
        switch error as? RegistrationError {
        case .refused(let r, _, _)? where !r.isTemporary: refusal = r
        case .notSupported?: refusal = .closed
        default: return nil
        }
        let admin = "with --admin as the server's administrator (xmpp-login ADMIN@DOMAIN once, then -a ADMIN@DOMAIN) "
            + "to create the accounts through its XEP-0133 commands"
        let invite = "with --invite --report FILE for one invitation link per row (XEP-0401)"
        let ways = refusal == .invitationOnly
            ? "in-band registration is by invitation only; run the same batch again " + invite + ", or " + admin
            : "in-band registration is closed to this client; run the same batch again " + admin + ", or " + invite
                + " where the server makes invitations"
        let takeover = untouched ? "; no account was created, so that run takes this one's journal over"
            : "; the server did act on some rows, so the journal keeps them: add --resume to the run with --admin, "
                + "which takes them over"
        return "\(error): " + ways + takeover
    }
}
