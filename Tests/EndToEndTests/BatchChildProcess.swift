import Foundation
import Glibc

/// A child process started with posix_spawn and reaped with waitpid. Foundation's `Process`
/// was seen here to hang for ever in `waitUntilExit` after `scripts/test-server start` (the
/// script exits, its zombie is never reaped), so the batch resilience tests, which start and
/// kill processes, manage theirs directly.
final class BatchChildProcess {
    let pid: pid_t
    private var stdoutFD: Int32
    private var exitStatus: Int32?
    /// Where stderr went.
    let stderrPath: String

    /// Starts `argv` with `environment`; stdout is captured when `captureStdout`, else discarded.
    init(_ argv: [String], environment: [String: String], captureStdout: Bool) throws {
        stderrPath = NSTemporaryDirectory() + "xt-child-" + UUID().uuidString + ".err"
        var fds: [Int32] = [-1, -1]
        if captureStdout {
            guard pipe(&fds) == 0 else { throw TestServerError.unusable("pipe failed") }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureStdout {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let args = argv.map { strdup($0) } + [nil]
        let env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in args + env { free(p) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, argv[0], &actions, nil, args, env)
        if captureStdout { close(fds[1]) }
        guard rc == 0 else {
            if captureStdout { close(fds[0]) }
            throw TestServerError.unusable("cannot start \(argv[0]): \(String(cString: strerror(rc)))")
        }
        pid = child
        stdoutFD = captureStdout ? fds[0] : -1
    }

    deinit { if stdoutFD >= 0 { close(stdoutFD) } }

    /// Bytes `stdoutSoFar` has taken from the pipe.
    private var captured: [UInt8] = []

    /// What the child has written to stdout so far, without waiting for more (a test watching a
    /// batch's progress; draining the pipe also keeps the child from blocking on it).
    func stdoutSoFar() -> String {
        guard stdoutFD >= 0 else { return String(decoding: captured, as: UTF8.self) }
        let flags = fcntl(stdoutFD, F_GETFL)
        _ = fcntl(stdoutFD, F_SETFL, flags | O_NONBLOCK)
        defer { if stdoutFD >= 0 { _ = fcntl(stdoutFD, F_SETFL, flags) } }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(stdoutFD, $0.baseAddress, $0.count) }
            if n > 0 { captured += buffer.prefix(n); continue }
            if n < 0 && errno == EINTR { continue }
            if n == 0 { close(stdoutFD); stdoutFD = -1 }
            break
        }
        return String(decoding: captured, as: UTF8.self)
    }

    /// Everything the child writes to stdout, until it closes it (with what `stdoutSoFar` took).
    func readStdout() -> String {
        guard stdoutFD >= 0 else { return String(decoding: captured, as: UTF8.self) }
        var out = captured
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(stdoutFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            out += buffer.prefix(n)
        }
        close(stdoutFD)
        stdoutFD = -1
        return String(decoding: out, as: UTF8.self)
    }

    /// What the child wrote to stderr so far.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// True until the child has exited (reaping it then).
    var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status; return false }
        return true
    }

    /// Waits for the child: its exit code, or 128 + the signal that killed it.
    @discardableResult
    func wait(timeout: TimeInterval = 180) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning {
            guard Date() < deadline else {
                Glibc.kill(pid, SIGKILL)
                throw TestServerError.unusable("pid \(pid) still running after \(timeout) s")
            }
            usleep(10_000)
        }
        let status = exitStatus ?? 0
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Sends `signal` to the child.
    func kill(_ signal: Int32) { _ = Glibc.kill(pid, signal) }

    /// Runs `argv` to the end: exit code and stdout.
    static func run(_ argv: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                    timeout: TimeInterval = 120) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try BatchChildProcess(argv, environment: environment, captureStdout: true)
        let out = child.readStdout()
        let status = try child.wait(timeout: timeout)
        return (status, out, child.stderr)
    }
}
