import XMPPStorage

/// Why a batch cannot go on. Errors of the journal (`JournalError`), the network and the
/// services pass through as they are; the command line maps every one to an exit status.
public enum BatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The CSV could not be read: no such file, too large, a read error (the message says which).
    case unreadableInput(String)
    /// The CSV is not RFC 4180 text, or has no header row (the message names the input).
    case invalidCSV(String)
    /// The header row lacks a column the batch needs, or names one twice.
    case badHeader(String)
    /// A `username` column and no domain to add to it.
    case usernameNeedsDomain
    /// The existing report could not be read.
    case unreadableReport(path: String, reason: String)
    /// The report's directory (or the report) belongs to another user or others can write it.
    case unsafeReport(StorageError)
    /// `--report-by-group`'s directory is a link, another user's, or below a directory others
    /// can write: refused before any account is made, as the report's own directory is.
    case unsafeReportByGroup(StorageError)
    /// A file where the report goes that is not a batch report: it is not overwritten.
    case notAReport(path: String, reason: String)
    /// The report cannot take an account's new password (`passwd --admin --report`): `reason` says why.
    case reportHasNoPassword(report: String, jid: String, reason: String)
    /// A resumed journal lacks a row of the CSV.
    case journalLacksLine(Int)
    /// The directory for journals could not be made.
    case stateDirectory(StorageError)
    /// Nothing moved for `seconds`; `throttled` when the server was slowing us down.
    case noProgress(seconds: Int64, reason: String?, throttled: Bool)
    /// `xmpp-register sync`'s state could not be read or written (the message says which).
    case syncState(String)

    public var description: String {
        switch self {
        case .unreadableInput(let message), .invalidCSV(let message), .badHeader(let message): return message
        case .usernameNeedsDomain: return "a 'username' column needs --domain DOMAIN"
        case .unreadableReport(let path, let reason): return "cannot read the existing report \(path): \(reason)"
        case .unsafeReport(let error): return "cannot use --report: \(error)"
        case .unsafeReportByGroup(let error): return "cannot use --report-by-group: \(error)"
        case .notAReport(let path, let reason):
            return "\(path) exists and is not a batch report (\(reason)); give another --report FILE, or move it away first"
        case .reportHasNoPassword(let report, _, let reason): return "\(report) cannot take the new password: \(reason)"
        case .journalLacksLine(let line):
            return "the journal has no record of line \(line); run this batch again without --resume"
        case .stateDirectory(let error): return error.description
        case .syncState(let message): return message
        case .noProgress(let seconds, let reason, _): return "no progress for \(seconds) s" + (reason.map { ": \($0)" } ?? "")
        }
    }
}
