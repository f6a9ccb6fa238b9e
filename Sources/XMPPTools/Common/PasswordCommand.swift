#if canImport(Glibc)
import Glibc
#endif

/// A credential helper, as msmtp's `passwordeval` and isync's `PassCmd`: a shell command such as
/// `pass show xmpp/bot` whose first line of output is the password. It runs through
/// `/bin/sh -c` with standard input from /dev/null and standard error left to the user (a
/// password manager's own messages belong there); the password is only ever in this process's
/// memory, never in a file, an argument list or the trace.
struct PasswordCommand: Sendable {
    /// The command as the user gave it.
    let command: String
    /// How long it may take before it is stopped.
    let timeout: Duration

    /// Most a password manager prints; more is not a password.
    static let outputLimit = 64 << 10

    /// Runs the command and returns the first line of its output. A failure, an empty first
    /// line or a timeout is an authentication failure (exit status 3) naming the command.
    func password() throws(ToolFailure) -> String {
        let run = try spawn()
        let (output, timedOut) = collect(run.stdout, deadline: .now + timeout, pid: run.pid)
        close(run.stdout)
        let status = reap(run.pid)
        if timedOut {
            throw failure("did not print a password within \(timeout.components.seconds) s (--timeout) and was stopped")
        }
        switch status {
        case .exited(0): break
        case .exited(let code): throw failure("failed (exit status \(code))")
        case .signalled(let signal): throw failure("was killed by signal \(signal)")
        }
        let line = Self.firstLine(output)
        guard !line.isEmpty else { throw failure("printed no password (its first line of output is empty)") }
        return line
    }

    /// The password in `output`: its first line, without a trailing CR.
    static func firstLine(_ output: [UInt8]) -> String {
        var line = output.prefix { $0 != 0x0A }
        if line.last == 0x0D { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }

    private func failure(_ what: String) -> ToolFailure {
        ToolFailure(.auth, "the password command '\(command)' \(what)")
    }

    private enum Ending { case exited(Int32), signalled(Int32) }

    private func spawn() throws(ToolFailure) -> (pid: pid_t, stdout: Int32) {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw failure("could not be started: no pipe (\(errnoText()))") }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
        close(pipeEnds[1])
        guard result == 0 else {
            close(pipeEnds[0])
            throw failure("could not be started (\(String(cString: strerror(result))))")
        }
        _ = fcntl(pipeEnds[0], F_SETFL, fcntl(pipeEnds[0], F_GETFL) | O_NONBLOCK)
        return (pid, pipeEnds[0])
    }

    /// Reads until end of file, the limit or the deadline; at the deadline the command is killed.
    private func collect(_ fd: Int32, deadline: ContinuousClock.Instant, pid: pid_t) -> ([UInt8], Bool) {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { for i in buffer.indices { buffer[i] = 0 } }
        while output.count < Self.outputLimit {
            let left = deadline - .now
            guard left > .zero else {
                stop(pid)
                return (output, true)
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let millis = max(1, Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            let ready = poll(&pfd, 1, millis)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if n <= 0 { break }
            output += buffer.prefix(n)
        }
        return (output, false)
    }

    /// SIGTERM, then SIGKILL if it is still there after a moment.
    private func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        for _ in 0..<20 {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) != 0 { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
    }

    private func reap(_ pid: pid_t) -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return .exited(0) }  // already reaped by `stop`
        }
        if status & 0x7F == 0 { return .exited((status >> 8) & 0xFF) }
        return .signalled(status & 0x7F)
    }

    private func errnoText() -> String { String(cString: strerror(errno)) }
}
