import TextFormats
import Glibc
import Synchronization

/// Where commands write: data to stdout, diagnostics to stderr (fd 2 directly, ARCHITECTURE.md §11).
///
/// A failed write to standard output is remembered, later ones are dropped, and long-running
/// commands stop (`StopSignal.stopRequested`); `ToolMain` then reports it: EPIPE (the reader
/// went away) ends the program by SIGPIPE, quietly, any other error is exit status 1.
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

    /// The errno of the first failed write to standard output; 0 while every write succeeded.
    private static let stdoutErrno = Atomic<Int32>(0)

    /// The errno of the first failed write to standard output, if one failed.
    public static var stdoutFailure: Int32? {
        let value = stdoutErrno.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    /// Records that standard output cannot be written (the first failure wins).
    static func noteStdoutFailure(_ code: Int32) {
        _ = stdoutErrno.compareExchange(expected: 0, desired: code == 0 ? EIO : code, ordering: .acquiringAndReleasing)
    }

    private static func write(_ fd: Int32, _ text: String) { writeAll(fd, Array(text.utf8)) }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        if fd == 1 && stdoutFailure != nil { return }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                // Nothing useful can be said when stderr itself fails.
                if fd == 1 { noteStdoutFailure(n < 0 ? errno : EIO) }
                return
            }
            offset += n
        }
    }
}
