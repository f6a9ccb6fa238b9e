/// What a shell offers where an option value or a positional argument is expected.
///
/// The dynamic kinds (`accounts`, `contacts`, `custom`) are answered by the tool itself,
/// offline, through its hidden `__complete` subcommand (see `CompletionRequest`).
public enum CompletionKind: Sendable, Equatable {
    /// Free text: nothing to offer.
    case none
    /// Files; when `extensions` (without dots) is not empty, only files ending in one of them
    /// (directories are still offered, to descend into).
    case file(extensions: [String])
    /// Directories only.
    case directory
    /// One word of a fixed set; the parser also rejects any other value.
    case values([String])
    /// Accounts known to the local cache: `TOOL __complete accounts`.
    case accounts
    /// Roster contacts of the account in scope: `TOOL __complete contacts [--account JID]`.
    case contacts
    /// Any other candidates the tool can list offline: `TOOL __complete NAME [--account JID]`.
    case custom(String)

    /// Any file.
    public static let anyFile = CompletionKind.file(extensions: [])

    /// The `KIND` word passed to `TOOL __complete KIND` for dynamic kinds; nil for static ones.
    public var dynamicKind: String? {
        switch self {
        case .accounts: return "accounts"
        case .contacts: return "contacts"
        case .custom(let name): return name
        case .none, .file, .directory, .values: return nil
        }
    }

    /// The allowed words of a `.values` kind; nil for every other kind.
    public var allowedValues: [String]? {
        if case .values(let words) = self { return words }
        return nil
    }
}
