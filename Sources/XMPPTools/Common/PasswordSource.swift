import Arguments
import Glibc

/// Where a password comes from, in order: `--password-file F`, `--password-stdin`,
/// `XMPP_PASSWORD`, then a prompt on the terminal with echo off. Never from argv.
public struct PasswordSource: Sendable {
    static let fileOption = Option<String>("password-file", value: "FILE", help: "Read the password from the first line of FILE.",
                                           completion: .anyFile)
    static let stdinFlag = Flag("password-stdin", help: "Read the password from the first line of standard input.")
    /// What a command that takes a password declares.
    static let declarations: [any DeclaredOption] = [fileOption, stdinFlag]

    /// `--password-file`.
    public var file: String?
    /// `--password-stdin`.
    public var stdin: Bool
    /// The `XMPP_PASSWORD` value, if set.
    public var environment: String?

    /// Builds a source description.
    public init(file: String?, stdin: Bool, environment: String?) {
        self.file = file
        self.stdin = stdin
        self.environment = environment
    }

    /// A password is given without asking: a file, standard input or `XMPP_PASSWORD`.
    public var isGiven: Bool { file != nil || stdin || environment != nil }

    /// `--password-stdin` cannot share standard input with `what`, which the command reads there.
    public func refuseStandardInput(sharedWith what: String) throws(ToolFailure) {
        guard stdin else { return }
        throw ToolFailure(.usage, "--password-stdin cannot be used while \(what) comes from standard input: give the password with --password-file FILE or XMPP_PASSWORD")
    }

    /// Reads the password; `prompt` is shown on the terminal, `confirm` asks twice there.
    public func read(prompt: String, confirm: Bool = false) throws(ToolFailure) -> String {
        if let file {
            guard let bytes = try? readFile(file) else { throw ToolFailure(.badInput, "cannot read password file '\(file)'") }
            return try nonEmpty(firstLine(bytes), from: "password file '\(file)'")
        }
        if stdin {
            return try nonEmpty(firstLine(readAll(fd: 0, limit: 64 << 10)), from: "standard input")
        }
        if let environment { return try nonEmpty(environment, from: "XMPP_PASSWORD") }
        let first = try TerminalPrompt.readSecret(prompt)
        if confirm {
            let second = try TerminalPrompt.readSecret("Repeat the password: ")
            guard first == second else { throw ToolFailure(.badInput, "the passwords do not match") }
        }
        return try nonEmpty(first, from: "the terminal")
    }

    private func nonEmpty(_ password: String, from source: String) throws(ToolFailure) -> String {
        guard !password.isEmpty else { throw ToolFailure(.badInput, "empty password from \(source)") }
        return password
    }

    private func firstLine(_ bytes: [UInt8]) -> String {
        var line = bytes.prefix { $0 != 0x0A }
        if line.last == 0x0D { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }

    private func readFile(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ToolFailure(.badInput, "cannot open \(path)") }
        defer { close(fd) }
        return readAll(fd: fd, limit: 64 << 10)
    }
}

/// Reads everything from a descriptor, up to `limit` bytes.
func readAll(fd: Int32, limit: Int) -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while out.count < limit {
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        out += buffer.prefix(n)
    }
    return out
}

/// Asks for a secret on the controlling terminal with echo turned off.
enum TerminalPrompt {
    static func readSecret(_ prompt: String) throws(ToolFailure) -> String {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            throw ToolFailure(.usage, "no password given and no terminal to ask for one: use --password-file FILE, --password-stdin or XMPP_PASSWORD")
        }
        defer { close(fd) }
        _ = prompt.withCString { Glibc.write(fd, $0, strlen($0)) }
        var saved = termios()
        let haveTermios = tcgetattr(fd, &saved) == 0
        if haveTermios {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            _ = tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        defer { if haveTermios { _ = tcsetattr(fd, TCSAFLUSH, &saved) } }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 4096 {
            let n = Glibc.read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 || byte == 0x0A { break }
            line.append(byte)
        }
        if line.last == 0x0D { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
