/// One positional argument of a subcommand, such as the `JID` of `xmpp-roster remove JID`.
public struct PositionalSpec: Sendable, Equatable {
    /// Placeholder shown in usage lines: `JID`.
    public var name: String
    /// One sentence saying what the argument is.
    public var help: String
    /// Whether the argument may be left out.
    public var optional: Bool
    /// Whether the argument takes every remaining word (only the last positional may).
    public var variadic: Bool
    /// What shells complete for it; `.values` also restricts what the parser accepts.
    public var completion: CompletionKind

    /// Declares a positional argument.
    public init(
        _ name: String, help: String, optional: Bool = false, variadic: Bool = false,
        completion: CompletionKind = .none
    ) {
        self.name = name
        self.help = help
        self.optional = optional
        self.variadic = variadic
        self.completion = completion
    }

    /// The argument as written in a usage line: `JID`, `[JID]`, `JID...` or `[JID...]`.
    public var usage: String {
        let word = variadic ? name + "..." : name
        return optional ? "[" + word + "]" : word
    }
}
