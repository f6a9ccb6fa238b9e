/// What a parsed command line asks the tool to do.
public enum ParseOutcome: Sendable, Equatable {
    /// Run a subcommand.
    case run(ParsedCommand)
    /// Print this help text (it ends in a newline) to stdout and exit 0.
    case help(String)
    /// Print this version line to stdout and exit 0.
    case version(String)
    /// Print completion candidates, one per line, to stdout and exit 0: see `CompletionRequest`.
    case complete(CompletionRequest)
}

/// A shell completion script asking the tool for candidates it knows offline.
///
/// The protocol: `TOOL __complete KIND [--account JID]`, where KIND is `accounts`, `contacts`
/// or a `CompletionKind.custom` name. The tool prints matching candidates, one per line, from
/// its local cache only (no network, no prompt, nothing on stderr unless broken), and exits 0,
/// printing nothing for a KIND it does not know. The shell filters by the typed prefix.
/// `--account` names the account given on the command line being completed, if any.
public struct CompletionRequest: Sendable, Equatable {
    /// The hidden subcommand word: `__complete`.
    public static let subcommand = "__complete"

    /// What to list: `accounts`, `contacts` or a custom kind.
    public var kind: String
    /// The account given on the command line being completed.
    public var account: String?

    /// A request for `kind` candidates of `account`.
    public init(kind: String, account: String? = nil) {
        self.kind = kind
        self.account = account
    }

    /// Reads the words after `__complete`, leniently: unknown words are ignored.
    init(arguments: ArraySlice<String>) {
        var kind = ""
        var account: String?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            if word == "--account" || word == "-a" {
                index += 1
                if index < arguments.endIndex { account = arguments[index] }
            } else if word.hasPrefix("--account=") {
                account = String(word.dropFirst("--account=".count))
            } else if kind.isEmpty && !word.hasPrefix("-") {
                kind = word
            }
            index += 1
        }
        self.init(kind: kind, account: account.flatMap { $0.isEmpty ? nil : $0 })
    }
}
