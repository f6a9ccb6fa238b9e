import XMPPStorage

/// A batch journal's refusals in xmpp-register batch's words: what makes another run a
/// different batch named by its options, and the way forward (`--resume`, another `--report`).
/// The messages never suggest removing a journal that holds generated passwords: until a
/// finished run's report holds them, it is their only copy.
enum JournalWords {
    /// One phrase per difference, as the command line names it: "--admin: the journal's run had
    /// it, this one does not".
    static func phrases(_ differences: [BatchIdentityDifference]) -> [String] {
        differences.map { difference in
            switch difference {
            case .notAJournal: return "the file is not a batch journal"
            case .otherVersion: return "it was recorded by another version of xmpp-register"
            case .option(let option, let recorded):
                return optionName(option) + (recorded ? ": the journal's run had it, this one does not"
                                                      : ": this run has it, the journal's run did not")
            case .mode(let recorded, let current):
                return "the journal's run " + modeWords(recorded, past: true) + ", this one " + modeWords(current, past: false)
            case .domain(let recorded, let current):
                return "--domain: the journal's run had " + (recorded ?? "none") + ", this one has " + (current ?? "none")
            case .shard(let recorded, let current):
                return "--shard: the journal's run had " + (recorded ?? "none") + ", this one has " + (current ?? "none")
            case .input: return "the CSV's content differs"
            case .directoryMap: return "--map (the LDIF attributes' columns) differs"
            case .plan: return "the sync's plan differs"
            }
        }
    }

    /// The refusal, with the way forward.
    static func message(_ error: JournalError) -> String {
        switch error {
        case .unfinished(let p, let d, let t, let same, let n, let differences, let resumable):
            let what = same ? "this batch" : "a different batch (" + differing(differences) + ")"
            let how = same ? "continue it with --resume"
                : resumable ? "continue it with --resume, which takes its rows over with this run's --admin choice"
                : "finish it with its own CSV and options and --resume, or choose another --report"
            return "\(p) records an unfinished run of \(what) (\(d) of \(t) rows done): " + how
                + (n > 0 ? keep(n) : (same ? ", or remove that file to start over" : ""))
        case .mismatch(let p, let r, let n, let differences):
            let what = differences.isEmpty ? r : differing(differences)
            return "\(p) records a different batch (\(what)); give the same CSV and options to --resume it"
                + (n > 0 ? keep(n) : ", or remove that file")
        case .holdsPasswords(let p, let n):
            return "\(p) holds the generated passwords of \(n) account\(n == 1 ? "" : "s") of a finished run whose report "
                + "was not written: run that batch again with --resume to write the report (keep this file until then)"
        case .locked(let p): return "another xmpp-register batch is using \(p)"
        case .storage: return error.description
        }
    }

    private static func optionName(_ option: BatchIdentity.Option) -> String {
        switch option {
        case .admin: "--admin"
        case .invite: "--invite"
        case .generatePasswords: "--generate-passwords"
        case .sharedGroups: "--shared-groups"
        }
    }

    private static func modeWords(_ mode: BatchIdentity.Mode?, past: Bool) -> String {
        switch mode {
        case .delete?: past ? "deleted accounts (--delete)" : "deletes accounts (--delete)"
        case .passwd?: past ? "changed passwords (--passwd)" : "changes passwords (--passwd)"
        case .create?: past ? "created accounts" : "creates accounts"
        case nil: past ? "did something else" : "does something else"
        }
    }

    private static func differing(_ differences: [BatchIdentityDifference]) -> String {
        differences.isEmpty ? "another CSV or other options" : phrases(differences).joined(separator: "; ")
    }

    private static func keep(_ count: Int) -> String {
        "; keep that file: it holds the only copy of \(count) generated password\(count == 1 ? "" : "s")"
    }
}
