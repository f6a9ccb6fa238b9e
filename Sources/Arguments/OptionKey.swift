/// Anything that declares one option: an `OptionSpec`, or a typed `Flag` or `Option` that is
/// read back through the same declaration.
public protocol DeclaredOption: Sendable {
    /// The declaration that parsing, help, man pages and completions use.
    var spec: OptionSpec { get }
}

extension OptionSpec: DeclaredOption {
    public var spec: OptionSpec { self }
}

/// A flag declared once and read back through that declaration (`command[Self.online]`), so a
/// misspelt name cannot compile and the spec and the code cannot drift apart.
public struct Flag: DeclaredOption {
    /// The declaration that parsing, help, man pages and completions use.
    public let spec: OptionSpec

    /// Declares a flag: `--long` (and `-short`), set by `env` when that is neither empty nor a "no".
    public init(_ long: String, short: Character? = nil, help: String, env: String? = nil, hidden: Bool = false) {
        spec = .flag(long, short: short, help: help, env: env, hidden: hidden)
    }
}

/// An option taking a value, declared once and read back through that declaration as `Value`.
public struct Option<Value: Sendable>: DeclaredOption {
    /// The declaration that parsing, help, man pages and completions use.
    public let spec: OptionSpec
    private let convert: @Sendable (String) -> Value?
    private let expected: String

    /// An option whose values `convert` reads, `expected` saying what it accepts.
    public init(spec: OptionSpec, expected: String, convert: @escaping @Sendable (String) -> Value?) {
        self.spec = spec
        self.expected = expected
        self.convert = convert
    }

    /// Reads `text` as this option's value; a usage error naming the option when it is not one.
    func read(_ text: String, in command: ParsedCommand) throws(ArgumentError) -> Value {
        guard let value = convert(text) else { throw command.invalid(spec.long, text, expected) }
        return value
    }
}

extension Option where Value == String {
    /// Declares an option taking any text.
    public init(
        _ long: String, short: Character? = nil, value valueName: String, help: String, default defaultValue: String? = nil,
        repeatable: Bool = false, env: String? = nil, completion: CompletionKind = .none, hidden: Bool = false
    ) {
        self.init(
            spec: OptionSpec(long, short: short, value: valueName, help: help, default: defaultValue, repeatable: repeatable,
                             env: env, completion: completion, hidden: hidden),
            expected: valueName, convert: { $0 })
    }
}

extension Option where Value == Int {
    /// Declares an option taking a whole number within `range`.
    public static func integer(
        _ long: String, short: Character? = nil, value valueName: String, help: String, in range: ClosedRange<Int>,
        default defaultValue: Int? = nil, env: String? = nil
    ) -> Option {
        Option(
            spec: OptionSpec(long, short: short, value: valueName, help: help, default: defaultValue.map(String.init), env: env),
            expected: "an integer from \(range.lowerBound) to \(range.upperBound)",
            convert: { text in Int(text).flatMap { range.contains($0) ? $0 : nil } })
    }
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// Declares an option taking one of `Value`'s cases by raw value; the shells complete them,
    /// help lists them and the parser refuses anything else.
    public static func choice(
        _ long: String, short: Character? = nil, value valueName: String, help: String, default defaultValue: Value? = nil,
        env: String? = nil
    ) -> Option {
        let words = Value.allCases.map(\.rawValue)
        return Option(
            spec: OptionSpec(long, short: short, value: valueName, help: help, default: defaultValue?.rawValue, env: env,
                             completion: .values(words)),
            expected: ParseState.oneOf(words), convert: { Value(rawValue: $0) })
    }
}

extension ParsedCommand {
    /// Whether `flag` is set.
    public subscript(_ flag: Flag) -> Bool { self.flag(flag.spec.long) }

    /// The value of `option` (the last one if repeated), nil when it has none.
    public func value<Value>(_ option: Option<Value>) throws(ArgumentError) -> Value? {
        guard let text = string(option.spec.long) else { return nil }
        return try option.read(text, in: self)
    }

    /// Every value of `option`, in order.
    public func values<Value>(_ option: Option<Value>) throws(ArgumentError) -> [Value] {
        var values: [Value] = []
        for text in strings(option.spec.long) { values.append(try option.read(text, in: self)) }
        return values
    }

    /// Where `option` got its value; nil when it has none.
    public func source<Value>(of option: Option<Value>) -> ValueSource? { source(option.spec.long) }

    /// Where `flag` was set; nil when it is not.
    public func source(of flag: Flag) -> ValueSource? { source(flag.spec.long) }
}

extension DeclaredOption where Self == OptionSpec {
    /// `.flag(…)` where a list of declarations is expected, as where one of specs is.
    public static func flag(
        _ long: String, short: Character? = nil, help: String, env: String? = nil, hidden: Bool = false
    ) -> OptionSpec {
        OptionSpec(long, short: short, help: help, env: env, hidden: hidden)
    }
}
