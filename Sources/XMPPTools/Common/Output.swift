#if canImport(Glibc)
import Glibc
#endif

/// Where commands write: data to stdout, diagnostics to stderr (fd 2 directly, DESIGN.md §7).
public enum Output {
    /// Writes text to standard output.
    public static func out(_ text: String) { write(1, text) }
    /// Writes a line to standard output.
    public static func line(_ text: String) { write(1, text + "\n") }
    /// Writes a line to standard error, its controls escaped: messages quote remote and user text.
    public static func err(_ text: String) { write(2, TerminalText.escaped(text) + "\n") }
    /// Writes raw bytes to standard output.
    public static func bytes(_ bytes: [UInt8]) { writeAll(1, bytes) }

    /// True when standard output is a terminal.
    public static var stdoutIsTTY: Bool { isatty(1) == 1 }
    /// True when standard error is a terminal.
    public static var stderrIsTTY: Bool { isatty(2) == 1 }

    private static func write(_ fd: Int32, _ text: String) { writeAll(fd, Array(text.utf8)) }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }  // EPIPE with SIGPIPE ignored: the reader went away
            offset += n
        }
    }
}
