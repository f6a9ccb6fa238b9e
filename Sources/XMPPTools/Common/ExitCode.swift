/// Exit statuses every tool uses (ARCHITECTURE.md §3; documented in xmpp-tools(7)).
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Success, including "no results".
    case ok = 0
    /// The operation failed, or a batch partly failed, or standard output or a file could not be written.
    case failed = 1
    /// The command line was wrong.
    case usage = 2
    /// Authentication failed, or no session is cached.
    case auth = 3
    /// The account, contact, vCard or avatar does not exist.
    case notFound = 4
    /// Conflict: the account already exists.
    case conflict = 5
    /// Network: DNS, refused, timeout, stream error.
    case network = 6
    /// TLS or certificate failure.
    case tls = 7
    /// Refused by server policy (not-allowed, forbidden, policy-violation, resource-constraint).
    case refused = 8
    /// Bad input: CSV, image, vCard, JID.
    case badInput = 9
    /// The server creates no account for this client: no in-band registration, closed, or by
    /// invitation only. Trying again will not help.
    case registrationClosed = 10
    /// The server limits how often accounts are created from one address: try again later.
    case registrationThrottled = 11
    /// The account may not do this: an ad-hoc command it has no right to run, such as a XEP-0133
    /// administration command run by an account that is not an administrator of the server.
    case notPermitted = 12
    /// `xmpp-register sync`: the plan had changes and all were applied (with --dry-run: it has changes).
    case changesMade = 13
    /// `xmpp-register sync`: the plan removes more accounts than the limit; nothing was sent.
    case confirmationNeeded = 14
    /// Stopped early by SIGINT (128 + 2), as a shell reports a program Ctrl-C killed.
    case interrupted = 130
    /// Stopped early by SIGTERM (128 + 15).
    case terminated = 143

    /// One line for the man page table.
    public var meaning: String {
        switch self {
        case .ok: return "success (also when there are no results)"
        case .failed: return "the operation failed, or some rows of a batch failed, or the output could not be written"
        case .usage: return "usage error: unknown option, missing argument"
        case .auth: return "authentication failed, or no cached session"
        case .notFound: return "not found: account, contact, vCard or avatar"
        case .conflict: return "conflict: the account already exists"
        case .network: return "network: DNS, connection refused, timeout, stream error"
        case .tls: return "TLS or certificate failure"
        case .refused: return "refused by server policy (not-allowed, forbidden, policy-violation, resource-constraint)"
        case .badInput: return "bad input: CSV, image, vCard or JID"
        case .registrationClosed:
            return "registration closed: the server creates no account for this client (no in-band registration, closed, or by invitation only); an administrator can still create it"
        case .registrationThrottled:
            return "registration throttled: the server limits how many accounts one address may create; try again later"
        case .notPermitted:
            return "not permitted: the account may not run the server's command, for --admin and xmpp-adhoc(1) "
                + "administration commands because it is not an administrator of that server"
        case .changesMade:
            return "changes made: xmpp-register sync applied a plan that had changes, all without a failure (with --dry-run: "
                + "the plan has changes); 0 is a file already in step, 1 some change failed"
        case .confirmationNeeded:
            return "not confirmed: xmpp-register sync would disable or delete more managed accounts than --max-removals "
                + "allows; nothing was sent; check the file, then run again with --yes"
        case .interrupted: return "interrupted by SIGINT (Ctrl-C) before the work was done; xmpp-register batch records where it stopped, for --resume"
        case .terminated: return "stopped by SIGTERM before the work was done; xmpp-register batch records where it stopped, for --resume"
        }
    }
}

/// An exit status that is not an error, said by the command's own output already
/// (`xmpp-register sync`: changes made).
public struct StatusOnly: Error, Sendable {
    public var code: ExitCode

    public init(_ code: ExitCode) { self.code = code }
}

/// A failure a command reports: one line on stderr and an exit status.
public struct ToolFailure: Error, Sendable {
    /// The exit status.
    public var code: ExitCode
    /// The one-line message (without the program name).
    public var message: String

    /// Builds a failure.
    public init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }
}
