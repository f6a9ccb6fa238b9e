/// A rule between the options of one subcommand, declared in its spec: the parser enforces it,
/// and help and the man page state it, so none of them can disagree.
public struct OptionRule: Sendable, Equatable {
    /// What the rule says.
    public enum Kind: Sendable, Equatable {
        /// At most one of these long names may be given.
        case exclusive([String])
        /// When the first long name is given, the second must be too.
        case requires(String, String)
    }

    /// What the rule says.
    public var kind: Kind
    /// Why, in a few words, for the error and the docs; nil when obvious.
    public var reason: String?

    /// At most one of `names` (long names without dashes) may be given on the command line.
    public static func exclusive(_ names: String..., because reason: String? = nil) -> OptionRule {
        OptionRule(kind: .exclusive(names), reason: reason)
    }

    /// `name` may be given only together with `other`.
    public static func requires(_ name: String, _ other: String, because reason: String? = nil) -> OptionRule {
        OptionRule(kind: .requires(name, other), reason: reason)
    }

    /// The long names the rule mentions.
    public var names: [String] {
        switch kind {
        case .exclusive(let names): return names
        case .requires(let name, let other): return [name, other]
        }
    }

    /// One sentence for help and man pages: `--cached and --refresh exclude each other.`
    public var sentence: String {
        let base: String
        switch kind {
        case .exclusive(let names):
            let typed = names.map { "--" + $0 }
            base = typed.count == 2 ? "\(typed[0]) and \(typed[1]) exclude each other"
                : typed.dropLast().joined(separator: ", ") + " and " + (typed.last ?? "") + " exclude each other"
        case .requires(let name, let other):
            base = "--\(name) needs --\(other)"
        }
        return base + (reason.map { ": " + $0 } ?? "") + "."
    }
}
