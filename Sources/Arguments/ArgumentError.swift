/// A usage error found while parsing a command line; the tool prints `description` and `hint`
/// to stderr and exits 2.
public struct ArgumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// An option not accepted here, exactly as typed, and the closest accepted one.
        case unknownOption(String, suggestion: String?)
        /// A subcommand that does not exist, and the closest one that does.
        case unknownSubcommand(String, suggestion: String?)
        /// No subcommand was given and the tool has no default; lists the visible ones.
        case missingSubcommand(available: [String])
        /// An option that needs a value ended the command line.
        case missingValue(option: String)
        /// A flag was given a value: `--json=yes`.
        case unexpectedValue(option: String, value: String)
        /// A required positional argument is missing.
        case missingPositional(String)
        /// A word was left over after every positional argument was filled.
        case tooManyPositionals(String)
        /// A value not of the expected form; `expected` says what is accepted.
        case invalidValue(option: String, value: String, expected: String)
        /// An option that may be given only once was given again.
        case notRepeatable(String)
        /// Two options that exclude each other were both given (an `OptionRule`), and why.
        case conflictingOptions(String, String, reason: String?)
        /// An option was given without one it needs (an `OptionRule`), and why.
        case missingOption(String, needs: String, reason: String?)

        /// One line, without the tool name.
        public var description: String {
            switch self {
            case .unknownOption(let option, let suggestion):
                return "unknown option '\(option)'" + Self.didYouMean(suggestion)
            case .unknownSubcommand(let word, let suggestion):
                return "unknown subcommand '\(word)'" + Self.didYouMean(suggestion)
            case .missingSubcommand(let available):
                return "missing subcommand (one of: \(available.joined(separator: ", ")))"
            case .missingValue(let option):
                return "option '\(option)' needs a value"
            case .unexpectedValue(let option, let value):
                return "option '\(option)' takes no value (got '\(value)')"
            case .missingPositional(let name):
                return "missing argument \(name)"
            case .tooManyPositionals(let word):
                return "unexpected argument '\(word)'"
            case .invalidValue(let option, let value, let expected):
                return "invalid value '\(value)' for \(option) (expected \(expected))"
            case .notRepeatable(let option):
                return "option '\(option)' given more than once"
            case .conflictingOptions(let first, let second, let reason):
                return "\(first) and \(second) cannot be used together" + (reason.map { ": " + $0 } ?? "")
            case .missingOption(let option, let needs, let reason):
                return "\(option) needs \(needs)" + (reason.map { ": " + $0 } ?? "")
            }
        }

        private static func didYouMean(_ suggestion: String?) -> String {
            suggestion.map { " (did you mean '\($0)'?)" } ?? ""
        }
    }

    /// What was wrong.
    public var reason: Reason
    /// The tool whose command line it was: `xmpp-roster`.
    public var tool: String
    /// The subcommand in scope, if one was named.
    public var command: String?

    /// Wraps `reason` for `tool`, with `command` in scope.
    public init(_ reason: Reason, tool: String, command: String? = nil) {
        self.reason = reason
        self.tool = tool
        self.command = command
    }

    /// One line: `xmpp-roster: unknown option '--onlin' (did you mean '--online'?)`.
    public var description: String { tool + ": " + reason.description }

    /// Where to read more: `Try 'xmpp-roster list --help'.`
    public var hint: String {
        "Try '" + tool + (command.map { " " + $0 } ?? "") + " --help'."
    }
}
