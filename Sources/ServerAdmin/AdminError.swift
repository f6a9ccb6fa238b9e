import TextFormats

/// Why a server's admin interface did not do what was asked.
public enum AdminError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The interface could not be reached (connection refused, TLS, timeout): libcurl's words.
    case unreachable(url: String, reason: String)
    /// It answered with an HTTP error: the status and the server's text.
    case refused(command: String, status: Int, message: String)
    /// It answered 200 with something that is not the documented result.
    case badReply(command: String, reason: String)
    /// A local admin command (prosodyctl) failed.
    case command(String, status: Int32, output: String)

    public var description: String {
        switch self {
        case .unreachable(let url, let reason):
            return "cannot reach the server's admin API at \(TerminalText.escaped(url)): \(TerminalText.escaped(reason))"
        case .refused(let command, let status, let message):
            let hint = status == 401 || status == 403
                ? " (the API allows this command from loopback or to an administrator: see api_permissions in ejabberd.yml)" : ""
            return "the server refused \(command) (HTTP \(status)): \(TerminalText.escaped(message))" + hint
        case .badReply(let command, let reason): return "\(command): an answer the API does not document: \(TerminalText.escaped(reason))"
        case .command(let command, let status, let output):
            return "\(TerminalText.escaped(command)) failed (exit status \(status)): \(TerminalText.escaped(output))"
        }
    }
}
