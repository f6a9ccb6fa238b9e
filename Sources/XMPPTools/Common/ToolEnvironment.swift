import Glibc
import XMPPConnection
import XMPPStorage

/// The process-wide things a command uses: its name, environment variables, file stores,
/// and the one TLS context per process.
public final class ToolEnvironment {
    /// The program name for messages, e.g. `xmpp-login`.
    public let program: String
    /// The environment variables.
    public let variables: [String: String]
    /// Where files live.
    public let paths: Paths
    private var tlsContexts: [TLSSettings: TLSContext] = [:]
    /// `-q`: no warnings or notes.
    public var quiet = false

    /// Reads the process environment.
    public init(program: String, variables: [String: String]) throws(ToolFailure) {
        self.program = program
        self.variables = variables
        do { paths = try Paths(environment: variables) } catch { throw ToolFailure(.failed, error.description) }
    }

    /// `accounts.json`.
    public var accounts: AccountStore { AccountStore(paths: paths) }
    /// Session files.
    public var sessions: SessionStore { SessionStore(paths: paths) }

    /// The TLS context for `settings`, built once per process.
    public func tlsContext(_ settings: TLSSettings) throws(ConnectionError) -> TLSContext {
        if let existing = tlsContexts[settings] { return existing }
        let context = try TLSContext(settings: settings)
        tlsContexts[settings] = context
        return context
    }

    /// Prints `program: message` on stderr unless quiet.
    public func warn(_ message: String) {
        guard !quiet else { return }
        Output.err("\(program): \(message)")
    }

    /// Prints a security warning that `-q` does not silence.
    public func alarm(_ message: String) {
        Output.err("\(program): \(message)")
    }

    /// The working directory, for making paths absolute.
    public var currentDirectory: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Seconds since 1970.
    public var now: Int { Int(time(nil)) }

    /// The process environment as a dictionary.
    public static func processVariables() -> [String: String] {
        var result: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                result[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            cursor += 1
        }
        return result
    }
}

