/// A command line resolved against a `ToolSpec`: the subcommand to run and its arguments.
public struct ParsedCommand: Sendable, Equatable {
    /// The tool: `xmpp-roster`.
    public var tool: String
    /// The subcommand to run (the default one when no subcommand word was given).
    public var command: String
    /// Whether `command` is the tool's default subcommand, chosen because no subcommand word was given.
    public var isDefault: Bool
    /// Values of options taking one, keyed by long name, in command-line order; options absent
    /// from the command line hold their environment fallback or default, if any.
    public var values: [String: [String]]
    /// Long names of the flags that are set.
    public var flags: Set<String>
    /// Positional arguments in order.
    public var positionals: [String]
    /// Positional arguments keyed by `PositionalSpec.name` (a variadic one holds every word).
    public var arguments: [String: [String]]
    /// Where each entry of `values` and `flags` came from.
    public var sources: [String: ValueSource]

    /// An empty result for `command` of `tool`.
    public init(
        tool: String, command: String, isDefault: Bool = false, values: [String: [String]] = [:],
        flags: Set<String> = [],
        positionals: [String] = [], arguments: [String: [String]] = [:], sources: [String: ValueSource] = [:]
    ) {
        self.tool = tool
        self.command = command
        self.isDefault = isDefault
        self.values = values
        self.flags = flags
        self.positionals = positionals
        self.arguments = arguments
        self.sources = sources
    }

    /// The value of option `long` (the last one if repeated).
    public func string(_ long: String) -> String? { values[long]?.last }

    /// Every value of option `long`, in order.
    public func strings(_ long: String) -> [String] { values[long] ?? [] }

    /// Whether flag `long` is set.
    public func flag(_ long: String) -> Bool { flags.contains(long) }

    /// Where option `long` got its value; nil when it has none.
    public func source(_ long: String) -> ValueSource? { sources[long] }

    /// The value of positional `name` (the first word of a variadic one).
    public func argument(_ name: String) -> String? { arguments[name]?.first }

    /// Every word of positional `name`.
    public func argumentList(_ name: String) -> [String] { arguments[name] ?? [] }

    /// The value of option `long` as an integer, optionally within `range`.
    public func int(_ long: String, in range: ClosedRange<Int>? = nil) throws(ArgumentError) -> Int? {
        guard let text = string(long) else { return nil }
        guard let number = Int(text), range?.contains(number) ?? true else {
            let expected = range.map { "an integer from \($0.lowerBound) to \($0.upperBound)" } ?? "an integer"
            throw invalid(long, text, expected)
        }
        return number
    }

    /// The value of option `long` as a finite number, optionally within `range`.
    public func double(_ long: String, in range: ClosedRange<Double>? = nil) throws(ArgumentError) -> Double? {
        guard let text = string(long) else { return nil }
        guard let number = Double(text), number.isFinite, range?.contains(number) ?? true else {
            let expected = range.map { "a number from \($0.lowerBound) to \($0.upperBound)" } ?? "a number"
            throw invalid(long, text, expected)
        }
        return number
    }

    /// A usage error about option `long` of this command, for checks the spec cannot express.
    public func invalid(_ long: String, _ value: String, _ expected: String) -> ArgumentError {
        ArgumentError(
            .invalidValue(option: "--" + long, value: value, expected: expected), tool: tool,
            command: isDefault ? nil : command)
    }
}

/// Where an option's value came from.
public enum ValueSource: Sendable, Equatable {
    /// The command line.
    case commandLine
    /// The named environment variable.
    case environment(String)
    /// The option's declared default.
    case defaultValue
}
